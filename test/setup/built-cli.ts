import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CLI_ENTRY } from '../helpers/cli-entry.js';

/** The folders `tsconfig.build.json` compiles into `dist/`. */
const SOURCES = ['src', 'properties'];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function builtAt(): number | undefined {
  try {
    return statSync(CLI_ENTRY).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Global setup of the projects whose tests spawn the CLI: `dist/` must be the
 * build of the sources as they are. `npm test` builds first, so this finds it
 * fresh; after an edit (or on a clone never built) it runs the build once,
 * before any worker starts, and a failed build is one clear error.
 */
export default function setup(): void {
  const built = builtAt();
  const sources = Math.max(...SOURCES.map(newestMtime), statSync('tsconfig.json').mtimeMs);
  if (built !== undefined && built >= sources) return;
  process.stdout.write(
    `${CLI_ENTRY} is ${built === undefined ? 'missing' : 'older than the sources'}: building dist/ (npm run build) for the tests that run the CLI\n`,
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (build.status !== 0 || builtAt() === undefined) {
    throw new Error(`the tests that run the CLI need ${CLI_ENTRY}, and \`npm run build\` failed (exit ${String(build.status)}): fix the build, then rerun`);
  }
}
