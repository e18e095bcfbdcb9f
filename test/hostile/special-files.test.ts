import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile, readdir, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPair } from '../../src/certify/certificate/signing.js';
import { writeCertificate } from '../../src/certify/certificate/write-certificate.js';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import { RUN_MANIFEST } from '../../src/report/run-manifest.js';
import { cliArgs } from '../helpers/cli-entry.js';
import { runCli } from '../helpers/run-cli.js';
import { fifo, GRANTED_DRAFT, tempDir } from './_files.js';

/*
 * Issue 33, "the rest": the files and URLs that still hung or crashed in
 * round 4 (a known-issues list or a fixture that is a FIFO, a device or
 * huge; a URL target with a port beyond 65535), and the two links a run
 * folder may hold (evidence linked to an identical file, a linked manifest).
 */

const dir = tempDir('svc-hostile-special-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI, killed at `ms` (a FIFO read today waits forever): exit code, or 'killed'. */
function cliWithin(args: string[], ms: number, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | 'killed'; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliArgs(), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: killed ? 'killed' : (code ?? 'killed'), stderr });
    });
  });
}

function expectOneLine(r: { code: number | 'killed'; stderr: string }, code: number, message: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(message);
}

describe('--known-issues reads a regular file of a bounded size, of bounded entries', () => {
  it('a FIFO: exit 2 at once, no hang', async () => {
    const r = await cliWithin(['run', '--known-issues', fifo(dir, 'known.yaml'), '--report-dir', path.join(dir, 'k1')], 20_000);
    expectOneLine(r, 2, /cannot read known issues .*known\.yaml: it is a named pipe \(FIFO\)/);
  });

  it('/dev/zero (through a link too): exit 2 without reading it', async () => {
    symlinkSync('/dev/zero', path.join(dir, 'zero.yaml'));
    for (const file of ['/dev/zero', path.join(dir, 'zero.yaml')]) {
      const r = await cliWithin(['run', '--known-issues', file, '--report-dir', path.join(dir, 'k2')], 20_000);
      expectOneLine(r, 2, /cannot read known issues .*zero.*: it is a device/);
    }
  });

  it('a 60 MB file: exit 2 naming the cap, not read whole', async () => {
    const big = path.join(dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, 60 * 1024 * 1024);
    const r = await cliWithin(['run', '--known-issues', big, '--report-dir', path.join(dir, 'k3')], 20_000);
    expectOneLine(r, 2, /big\.yaml: it is 60 MiB, more than the 1 MiB accepted/);
  });

  it('200 000 entries (under the size cap in flow style): exit 2 naming the bound', async () => {
    const many = path.join(dir, 'many.yaml');
    writeFileSync(many, `[${Array.from({ length: 200_000 }, () => '{}').join(',')}]`);
    const r = await cliWithin(['run', '--known-issues', many, '--report-dir', path.join(dir, 'k4')], 30_000);
    expectOneLine(r, 2, /many\.yaml: it holds more than 40000 lines and items, more than a list of the 5000 entries accepted needs/);
  });
});

describe('mock --fixture', () => {
  it('a FIFO: exit 2 at once, the mock never starts', async () => {
    const r = await cliWithin(['mock', '--port', '0', '--fixture', fifo(dir, 'fixture.yaml')], 20_000);
    expectOneLine(r, 2, /cannot read fixture .*fixture\.yaml: it is a named pipe \(FIFO\)/);
  });
});

describe('run --target URL', () => {
  it('a port beyond 65535: exit 2 in one line naming it (not 70, "TypeError: Invalid URL")', async () => {
    const r = await cliWithin(['run', '--target', 'http://127.0.0.1:99999/v1', '--report-dir', path.join(dir, 't1')], 20_000, {
      SVC_KEY_ID: 'key-1',
      SVC_SECRET: 'not-a-real-secret',
    });
    expectOneLine(r, 2, /--target http:\/\/127\.0\.0\.1:99999\/v1: port 99999 is beyond 65535/);
  });

  it('a host that does not parse: exit 2 in one line', async () => {
    const r = await cliWithin(['run', '--target', 'http://exa mple.com/v1', '--report-dir', path.join(dir, 't2')], 20_000, { SVC_KEY_ID: 'key-1' });
    expectOneLine(r, 2, /is not a valid URL/);
  });
});

describe('links in a run folder', () => {
  it('verify-certificate: an evidence file that is a symlink to an identical file outside the folder is INVALID', async () => {
    const keys = await generateSigningKeyPair(path.join(dir, 'keys'));
    const cert = path.join(dir, 'cert');
    await writeCertificate(cert, GRANTED_DRAFT, { signKey: await readFile(keys.privateKeyFile, 'utf8') });
    const evidence = path.join(cert, 'evidence', (await readdir(path.join(cert, 'evidence')))[0]!);
    const copy = path.join(dir, 'outside-copy.json');
    await writeFile(copy, await readFile(evidence));
    await unlink(evidence);
    await symlink(copy, evidence);
    const r = await runCli(['verify-certificate', cert, '--public-key', keys.publicKeyFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/certificate INVALID: changed file: evidence\/.* \(it is a symbolic link, which the harness never writes\)/);
  });

  it('report prune never deletes a manifest that is a symlink, nor its target, and says the folder was left', async () => {
    const reports = path.join(dir, 'prune');
    mkdirSync(reports);
    const meta = { command: 'certify', targetName: 't', baseUrl: 'http://127.0.0.1:1', embedded: true };
    const old = (await writeCertificationRun(reports, GRANTED_DRAFT, { runId: '20260101-000001-aaaa', ...meta }, { secrets: [] })).reports.dir;
    await writeCertificationRun(reports, GRANTED_DRAFT, { runId: '20260101-000002-bbbb', ...meta }, { secrets: [] });
    const target = path.join(dir, 'my-manifest.json');
    await writeFile(target, await readFile(path.join(old, RUN_MANIFEST)));
    await unlink(path.join(old, RUN_MANIFEST));
    await symlink(target, path.join(old, RUN_MANIFEST));
    const r = await runCli(['report', 'prune', '--keep', '1', '--report-dir', reports, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { removed: string[]; left_holding: Array<{ folder: string; files: string[] }> };
    expect(out.removed).toEqual([]);
    expect(out.left_holding).toEqual([{ folder: '20260101-000001-aaaa', files: [RUN_MANIFEST] }]);
    expect((await readdir(old)).includes(RUN_MANIFEST)).toBe(true);
    expect(await readFile(target, 'utf8')).toMatch(/"files"/);
  });
});
