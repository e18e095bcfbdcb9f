// Bundles the CLI (src/cli/main.ts and everything it imports, dependencies included) into
// dist/src/cli/main.js and its chunks, with esbuild. A command that starts compiles one file and
// the chunks of what it runs, instead of resolving and compiling some thousand modules one by
// one: `run --only AU-01` took about a third less CPU (docs/testing.md). Each lazy import of the
// sources stays lazy: it is a chunk of its own, loaded when the command needs it.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/src/cli';

// Chunks are named by their content: the last build's would pile up beside the new ones.
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: OUT,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // prometheus-remote-write requires node-fetch only when it is given no fetch; the harness always gives it one.
  external: ['node-fetch'],
  // The CommonJS dependencies inside the bundle require Node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
