#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import type { CommandContext } from './command-spec.js';
import { exitCodeOf } from './exit-codes.js';
import { reportFatal } from './fatal.js';
import { errorJson, wantsJson } from './json-output.js';
import { buildParser } from './parser.js';
import { redactWrites } from '../log/redacting-writes.js';
import { knownSecretsRedactor } from '../profile/known-secrets.js';

/*
 * The one place the process exits: commands return an outcome, errors
 * propagate here, and both are mapped by exit-codes.ts.
 */
const context: CommandContext = {
  quit(outcome) {
    process.exit(exitCodeOf(outcome));
  },
};

// Every secret the profile holds stays off the console, whatever printed it.
for (const stream of [process.stdout, process.stderr]) redactWrites(stream, (text) => knownSecretsRedactor()(text));

const args = hideBin(process.argv);

buildParser(args, context)
  .run()
  .then(
    (outcome) => {
      process.exitCode = exitCodeOf(outcome);
      // A stopped command has written its report; work it abandoned (a check cut short) must not hold the process. Exit once stdout is out.
      if (outcome.kind === 'interrupted') process.stdout.write('', () => process.exit());
    },
    (err: unknown) => {
      process.exitCode = reportFatal(err);
      if (wantsJson(args)) process.stdout.write(`${errorJson(err)}\n`);
    },
  );
