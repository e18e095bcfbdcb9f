import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import { RUN_MANIFEST } from '../../src/report/run-manifest.js';
import { runCli } from '../helpers/run-cli.js';
import { GRANTED_DRAFT, tempDir } from './_files.js';

let base: string;
beforeEach(() => {
  base = tempDir('svc-hostile-prune-');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A certification run folder as the harness writes it: four reports, a certificate with its evidence, the manifest. */
async function certificationRun(runId: string): Promise<string> {
  const { reports } = await writeCertificationRun(
    base,
    GRANTED_DRAFT,
    { runId, command: 'certify', targetName: 't', baseUrl: 'http://127.0.0.1:1', embedded: true },
    { secrets: [] },
  );
  return reports.dir;
}

async function prune(keep: number): Promise<{
  code: number | null;
  out: { removed: string[]; kept: string[]; left_holding: Array<{ folder: string; files: string[] }>; left_alone: string[] };
  text: string;
}> {
  const r = await runCli(['report', 'prune', '--keep', String(keep), '--report-dir', base, '--json']);
  const t = await runCli(['report', 'prune', '--keep', String(keep), '--report-dir', base]);
  return { code: r.code, out: JSON.parse(r.stdout), text: t.stdout };
}

describe('report prune removes only what the harness wrote', () => {
  it("keeps a user's file placed inside an old run's certificate folder, and the folders holding it, and says so", async () => {
    const old = await certificationRun('20260101-000001-aaaa');
    await certificationRun('20260101-000002-bbbb');
    expect(await readdir(old)).toContain(RUN_MANIFEST);
    await writeFile(path.join(old, 'certificate', 'important.txt'), 'my notes');
    const { code, out, text } = await prune(1);
    expect(code).toBe(0);
    expect(out.removed).toEqual([]);
    expect(out.left_holding).toEqual([{ folder: '20260101-000001-aaaa', files: ['certificate/important.txt'] }]);
    expect(await readFile(path.join(old, 'certificate', 'important.txt'), 'utf8')).toBe('my notes');
    // The harness's own files are gone: the reports, the certificate, its evidence folder.
    expect((await readdir(old)).sort()).toEqual([RUN_MANIFEST, 'certificate']);
    expect(await readdir(path.join(old, 'certificate'))).toEqual(['important.txt']);
    expect(text).toMatch(/left 20260101-000001-aaaa: it holds files the harness did not write, or changed since it wrote them \(certificate\/important\.txt\)/);
  });

  it('keeps a harness file the user changed, an empty folder of theirs, and a symlink; removes an untouched run whole', async () => {
    const a = await certificationRun('20260101-000001-aaaa');
    const b = await certificationRun('20260101-000002-bbbb');
    await certificationRun('20260101-000003-cccc');
    await writeFile(path.join(a, 'summary.md'), 'edited by hand');
    await mkdir(path.join(a, 'certificate', 'evidence', 'mine'));
    await symlink('/etc', path.join(a, 'certificate', 'evidence', 'link'));
    const { out } = await prune(1);
    expect(out.removed).toEqual(['20260101-000002-bbbb']);
    expect(out.left_holding).toEqual([{ folder: '20260101-000001-aaaa', files: ['certificate/evidence/link', 'certificate/evidence/mine/', 'summary.md'] }]);
    expect(await readFile(path.join(a, 'summary.md'), 'utf8')).toBe('edited by hand');
    await expect(readdir(b)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a folder from before manifests: removes only the files named as the harness names them, and evidence its certificate.json lists unchanged', async () => {
    const a = await certificationRun('20260101-000001-aaaa');
    await certificationRun('20260101-000002-bbbb');
    await rm(path.join(a, RUN_MANIFEST));
    await writeFile(path.join(a, 'certificate', 'evidence', 'extra.json'), '{}');
    await writeFile(path.join(a, 'notes.txt'), 'mine');
    const { out } = await prune(1);
    expect(out.left_holding).toEqual([{ folder: '20260101-000001-aaaa', files: ['certificate/evidence/extra.json', 'notes.txt'] }]);
    expect(await readdir(path.join(a, 'certificate', 'evidence'))).toEqual(['extra.json']);
  });

  it('a crafted manifest cannot reach outside the folder', async () => {
    const a = await certificationRun('20260101-000001-aaaa');
    await certificationRun('20260101-000002-bbbb');
    const outside = path.join(base, 'precious.txt');
    await writeFile(outside, 'keep me');
    const manifest = JSON.parse(await readFile(path.join(a, RUN_MANIFEST), 'utf8'));
    manifest.files['../precious.txt'] = 'a'.repeat(64);
    await writeFile(path.join(a, RUN_MANIFEST), JSON.stringify(manifest));
    // An invalid manifest falls back to names: the reports go, the certificate's evidence only as its certificate.json lists it.
    const { out } = await prune(1);
    expect(await readFile(outside, 'utf8')).toBe('keep me');
    expect(out.left_alone).toContain('precious.txt');
  });
});
