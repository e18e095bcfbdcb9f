// Builds dist/ unless it is already newer than every source and the TypeScript configuration: `npm ci`
// builds through `prepare`, so the `npm start` or `npm test` that follows it starts at once instead of
// compiling the same sources again. It emits without checking types (`tsc --noCheck`, under half the time of
// `npm run build`): `npm test` checks them, over the tests too, and `npm run typecheck` alone. The library
// (dist/src/, tsc) and the bundled CLI (dist/src/cli/, scripts/bundle-cli.mjs) build side by side.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the build compiles, and the files that change its output. */
const SOURCES = ['src', 'properties'];
const CONFIG = ['tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-cli.mjs'];
/** The build's outputs, the CLI's entry and the library's: the oldest of them judges a stale or missing build. */
const OUTPUTS = ['dist/src/cli/main.js', 'dist/src/index.js'];

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
    return Math.min(...OUTPUTS.map((file) => statSync(file).mtimeMs));
  } catch {
    return undefined;
  }
}

const built = builtAt();
const sources = Math.max(...SOURCES.map(newestMtime), ...CONFIG.map(newestMtime));
if (built !== undefined && built >= sources) process.exit(0);
process.stdout.write(`dist/ is ${built === undefined ? 'missing' : 'older than the sources'}: building it\n`);
// TypeScript 7 (the native compiler) exports no path to its bin: found beside its package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
const steps = [[tsc, '-p', 'tsconfig.build.json', '--noCheck'], ['scripts/bundle-cli.mjs']].map(
  (args) => new Promise((resolve) => spawn(process.execPath, args, { stdio: 'inherit' }).on('close', (code) => resolve(code ?? 1))),
);
const codes = await Promise.all(steps);
process.exit(codes.find((code) => code !== 0) ?? 0);
