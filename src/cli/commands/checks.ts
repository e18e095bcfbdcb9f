import { listChecks } from '../../checks/list-checks.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness checks`. */
export interface ChecksCommandArgs {
  only?: string | undefined;
  markdown: boolean;
}

/** `svc-harness checks`: prints the checks of the suite with the SPEC clause each proves. */
export async function checksCommand(args: ChecksCommandArgs): Promise<CommandOutcome> {
  process.stdout.write(listChecks(args));
  return { kind: 'done' };
}
