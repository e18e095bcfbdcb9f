import { existsSync } from 'node:fs';

/**
 * How the tests start the CLI as a user's process: the build in `dist/`,
 * which `npm test` makes first and the `e2e` tier's setup
 * (`test/setup/built-cli.ts`) rebuilds when a source is newer. Spawning
 * `node --import tsx src/cli/main.ts` instead costs about a second of
 * compiling per process.
 */
export const CLI_ENTRY = 'dist/src/cli/main.js';

/** The arguments of `node` that run the CLI (`spawn(process.execPath, [...cliArgs(), 'run', …])`); throws one clear line when it was never built. */
export function cliArgs(): string[] {
  if (!existsSync(CLI_ENTRY)) {
    throw new Error(
      `${CLI_ENTRY} is missing: run \`npm run build\` first (npm test does, and so does the e2e tier's setup, where the tests that spawn the CLI belong)`,
    );
  }
  return [CLI_ENTRY];
}
