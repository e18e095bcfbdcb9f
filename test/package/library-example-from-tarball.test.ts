/**
 * PACKAGE TEST (slow, ~20 s; up to a minute with a build): packs the project as
 * `npm pack` would publish it, installs the tarball into an empty folder and
 * runs the library example of docs/library.md there, so the published files,
 * the `exports` map and the documented code are tested together as a user meets them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm's environment: the certificates a registry may need, which the tests' own processes start without (vitest.config.ts). */
const npmEnv = (): NodeJS.ProcessEnv => {
  const ca = process.env['SVC_HARNESS_TEST_NPM_CA_CERTS'];
  return ca === undefined ? process.env : { ...process.env, NODE_EXTRA_CA_CERTS: ca };
};

/** The ```ts block of docs/library.md, read at test time so the page cannot drift from what is tested. */
function libraryExample(): string {
  const page = readFileSync(path.join(root, 'docs/library.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/library.md has no ```ts block');
  return block[1]!;
}

/** Newest modification time under a folder, to tell whether dist/ is older than the sources it was built from. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function builtIsFresh(): boolean {
  try {
    return statSync(path.join(root, 'dist/src/index.js')).mtimeMs >= Math.max(newestMtime(path.join(root, 'src')), newestMtime(path.join(root, 'properties')));
  } catch {
    return false;
  }
}

describe('the packed package, installed in an empty folder', () => {
  let dir = '';

  beforeAll(async () => {
    // `npm test` builds first; a test run on its own builds when dist/ is missing or stale.
    if (!builtIsFresh()) await run(npm, ['run', 'build'], { cwd: root });
    dir = mkdtempSync(path.join(tmpdir(), 'svc-harness-pack-'));
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: root });
    const tarball = path.join(dir, stdout.trim().split('\n').pop()!);
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type: 'module' })}\n`);
    // From the npm cache when it holds the dependencies, from the registry otherwise.
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app, env: npmEnv() });
  }, 180_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('typechecks the library example of docs/library.md against the installed types and runs it against the embedded mock', async () => {
    const app = path.join(dir, 'app');
    writeFileSync(path.join(app, 'example.ts'), libraryExample());
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        outDir: 'out',
      },
      files: ['example.ts'],
    };
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });

    const { stdout } = await run(process.execPath, ['out/example.js'], { cwd: app, timeout: 60_000 });
    expect(stdout).toMatch(/FAIL: 0/);
    const reportDir = /reports in (\S+)/.exec(stdout)?.[1];
    expect(reportDir).toBeDefined();
    for (const file of ['report.html', 'report.json', 'junit.xml', 'summary.md']) {
      expect(statSync(path.join(app, reportDir!, file)).size, file).toBeGreaterThan(0);
    }
  }, 90_000);

  it('opens only the library entry and package.json: a deep import of an internal file is refused', async () => {
    const app = path.join(dir, 'app');
    const probe = [
      "const pkg = await import('svc-harness/package.json', { with: { type: 'json' } });",
      "let deep = 'allowed';",
      "try { await import('svc-harness/dist/src/report/write-reports.js'); } catch (e) { deep = e.code; }",
      'console.log(JSON.stringify({ name: pkg.default.name, deep }));',
    ].join('\n');
    writeFileSync(path.join(app, 'probe.mjs'), probe);
    const { stdout } = await run(process.execPath, ['probe.mjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ name: 'svc-harness', deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });
});
