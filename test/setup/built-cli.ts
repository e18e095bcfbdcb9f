import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI_ENTRY } from '../helpers/cli-entry.js';

/**
 * Global setup of the projects whose tests spawn the CLI: `dist/` must be the
 * build of the sources as they are. `npm test` builds first, so this finds it
 * fresh; after an edit (or on a clone never built) `scripts/build-if-stale.mjs`
 * runs the build once, before any worker starts, and a failed build is one
 * clear error.
 */
export default function setup(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(CLI_ENTRY)) {
    throw new Error(`the tests that run the CLI need ${CLI_ENTRY}, and \`npm run build\` failed (exit ${String(build.status)}): fix the build, then rerun`);
  }
}
