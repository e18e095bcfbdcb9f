// Builds dist/ unless it is already newer than every source and the TypeScript configuration: `npm ci`
// builds through `prepare`, so the `npm start` or `npm test` that follows it starts at once instead of
// compiling the same sources again. It emits without checking types (`tsc --noCheck`, half the time of
// `npm run build`): `npm test` checks them, over the tests too, and `npm run typecheck` alone.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What `tsconfig.build.json` compiles, and the files that change its output. */
const SOURCES = ['src', 'properties'];
const CONFIG = ['tsconfig.json', 'tsconfig.build.json'];
/** The build's entry: the file a stale or missing build is judged by. */
const ENTRY = 'dist/src/cli/main.js';

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A folder's own time changes when a file in it is added, renamed or deleted.
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function builtAt() {
  try {
    return statSync(ENTRY).mtimeMs;
  } catch {
    return undefined;
  }
}

const built = builtAt();
const sources = Math.max(...SOURCES.map(newestMtime), ...CONFIG.map(newestMtime));
if (built !== undefined && built >= sources) process.exit(0);
process.stdout.write(`${ENTRY} is ${built === undefined ? 'missing' : 'older than the sources'}: building dist/\n`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
process.exit(build.status ?? 1);
