import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

async function runFolder(base: string, id: string, files: string[]): Promise<void> {
  await mkdir(path.join(base, id), { recursive: true });
  for (const f of files) await writeFile(path.join(base, id, f), '{}');
}

describe('report prune --keep N', () => {
  it('removes the oldest run folders the harness wrote, keeps the one latest points at, and touches nothing else', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'prune-'));
    try {
      await runFolder(base, '20260101-000001-aaaa', ['report.json', 'junit.xml', 'summary.md', 'report.html']);
      await runFolder(base, '20260101-000002-bbbb', ['report.json', 'junit.xml']);
      await runFolder(base, '20260101-000003-cccc', ['selftest.json', 'selftest.md', 'selftest.html']);
      await runFolder(base, '20260101-000004-dddd', ['report.json', 'certificate']);
      await runFolder(base, '20260101-000005-eeee', ['report.json']);
      // Not the harness's: a run-id name holding someone's file, an empty one, a symlink, another name.
      await runFolder(base, '20260101-000000-ffff', ['report.json', 'my-notes.txt']);
      await mkdir(path.join(base, '20260101-000000-9999'));
      await mkdir(path.join(base, 'elsewhere'));
      await runFolder(path.join(base, 'elsewhere'), '20250101-000000-abcd', ['report.json']);
      await symlink(path.join(base, 'elsewhere', '20250101-000000-abcd'), path.join(base, '20250101-000000-abcd'));
      await writeFile(path.join(base, 'mine.txt'), 'x');
      await symlink('20260101-000001-aaaa', path.join(base, 'latest'));

      const r = await runCli(['report', 'prune', '--keep', '2', '--report-dir', base, '--json']);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { removed: string[]; kept: string[]; left_alone: string[] };
      expect(out.removed).toEqual(['20260101-000002-bbbb', '20260101-000003-cccc']);
      expect(out.kept).toEqual(['20260101-000005-eeee', '20260101-000004-dddd', '20260101-000001-aaaa']);
      expect((await readdir(base)).sort()).toEqual([
        '20250101-000000-abcd',
        '20260101-000000-9999',
        '20260101-000000-ffff',
        '20260101-000001-aaaa',
        '20260101-000004-dddd',
        '20260101-000005-eeee',
        'elsewhere',
        'latest',
        'mine.txt',
      ]);
      expect(await readdir(path.join(base, 'elsewhere', '20250101-000000-abcd'))).toEqual(['report.json']);

      const bad = await runCli(['report', 'prune', '--keep', '0', '--report-dir', base]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--keep must be an integer ≥ 1/);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, 30_000);
});
