import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { LATEST_COPY_MARKER } from '../../src/report/safe-write.js';
import { latestTarget, writeReports } from '../../src/report/write-reports.js';
import { sampleRun } from './fixtures/sample-run.js';

describe('writeReports', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'svc-reports-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('writes the four reports into <base>/<runId> and points latest at them', async () => {
    const result = sampleRun();
    const out = await writeReports(result, base);
    expect(out.dir).toBe(path.join(base, result.runId));
    expect(out.files.map((f) => path.basename(f)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(JSON.parse(await readFile(path.join(out.dir, 'report.json'), 'utf8')).runId).toBe(result.runId);
    expect(await readFile(path.join(out.dir, 'summary.md'), 'utf8')).toMatch(/^# ❌ FAIL/);
    expect((await lstat(path.join(base, 'latest'))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(base, 'latest'))).toBe(result.runId);
    expect(await readFile(path.join(base, 'latest', 'junit.xml'), 'utf8')).toContain('<testsuites');
    expect(JSON.parse(await readFile(path.join(base, 'latest.json'), 'utf8'))).toEqual({
      runId: result.runId,
      dir: result.runId,
      verdict: 'FAIL',
      finishedAt: result.finishedAt,
      files: ['report.json', 'junit.xml', 'summary.md', 'report.html'],
    });
    // No temporary files left behind.
    expect((await readdir(base)).sort()).toEqual([result.runId, 'latest', 'latest.json']);
    expect((await readdir(out.dir)).sort()).toEqual(['.svc-harness-files.json', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
  });

  it('moves latest to the newer run, even over a latest folder left by a harness copy', async () => {
    await writeReports(sampleRun({ runId: '20260101-000000-aaaa' }), base);
    await writeReports(sampleRun({ runId: '20260101-000001-bbbb' }), base);
    expect(await latestTarget(base)).toBe('20260101-000001-bbbb');
    await rm(path.join(base, 'latest'));
    await mkdir(path.join(base, 'latest'));
    await writeFile(path.join(base, 'latest', 'stale.txt'), 'old');
    await writeFile(path.join(base, 'latest', LATEST_COPY_MARKER), '{}');
    await writeReports(sampleRun({ runId: '20260101-000002-cccc', verdict: 'PASS' }), base);
    expect(await readlink(path.join(base, 'latest'))).toBe('20260101-000002-cccc');
    expect(JSON.parse(await readFile(path.join(base, 'latest.json'), 'utf8'))).toMatchObject({ runId: '20260101-000002-cccc', verdict: 'PASS' });
    expect((await readdir(base)).sort()).toEqual(['20260101-000000-aaaa', '20260101-000001-bbbb', '20260101-000002-cccc', 'latest', 'latest.json']);
  });

  it('creates a missing base folder', async () => {
    const nested = path.join(base, 'a', 'b');
    const out = await writeReports(sampleRun(), nested);
    expect((await readdir(out.dir)).length).toBe(5);
  });

  it.each(['../escape', 'a/b', 'latest', '', '..'])('refuses run id %j with a usage error', async (runId) => {
    const err = await writeReports(sampleRun({ runId }), base).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).code).toBe('E_USAGE');
    expect(await readdir(base)).toEqual([]);
  });

  it('reports an unwritable base as a harness error naming the folder', async () => {
    const file = path.join(base, 'not-a-dir');
    await writeFile(file, 'x');
    const err = await writeReports(sampleRun(), file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).code).toBe('E_REPORT_WRITE');
    expect((err as Error).message).toContain(path.join(file, '20261121-194501-ab12'));
  });

  describe('never removes or overwrites what it did not write', () => {
    const runId = '20261121-194501-ab12';
    const refusal = async (): Promise<HarnessError> => {
      const err = await writeReports(sampleRun({ runId }), base).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).code).toBe('E_REPORT_WRITE');
      expect((err as HarnessError).exitCode).toBe(2);
      // The run's reports are kept, and the message says where.
      expect((await readdir(path.join(base, runId))).sort()).toEqual(['.svc-harness-files.json', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
      expect((err as Error).message).toContain(path.join(base, runId));
      expect((err as Error).message).not.toContain('\n');
      return err as HarnessError;
    };

    it('refuses a user folder named latest and keeps its files', async () => {
      await mkdir(path.join(base, 'latest'));
      await writeFile(path.join(base, 'latest', 'notes.txt'), 'notes');
      expect((await refusal()).message).toContain(path.join(base, 'latest'));
      expect(await readFile(path.join(base, 'latest', 'notes.txt'), 'utf8')).toBe('notes');
    });

    it('refuses a user file named latest', async () => {
      await writeFile(path.join(base, 'latest'), 'mine');
      await refusal();
      expect(await readFile(path.join(base, 'latest'), 'utf8')).toBe('mine');
    });

    it('refuses a symlink named latest that points elsewhere than a run folder', async () => {
      const elsewhere = path.join(base, '..', path.basename(base) + '-elsewhere');
      await symlink(elsewhere, path.join(base, 'latest'));
      await refusal();
      expect(await readlink(path.join(base, 'latest'))).toBe(elsewhere);
    });

    it('refuses a latest.json it did not write and leaves it unchanged', async () => {
      await writeFile(path.join(base, 'latest.json'), '{"mine":1}\n');
      expect((await refusal()).message).toContain(path.join(base, 'latest.json'));
      expect(await readFile(path.join(base, 'latest.json'), 'utf8')).toBe('{"mine":1}\n');
    });

    it('refuses a run folder that already holds other files', async () => {
      await mkdir(path.join(base, runId));
      await writeFile(path.join(base, runId, 'mine.txt'), 'mine');
      const err = await writeReports(sampleRun({ runId }), base).catch((e: unknown) => e);
      expect((err as HarnessError).code).toBe('E_REPORT_WRITE');
      expect(await readdir(path.join(base, runId))).toEqual(['mine.txt']);
    });

    it('replaces its own symlink and pointer', async () => {
      await writeReports(sampleRun({ runId: '20260101-000000-aaaa' }), base);
      await writeReports(sampleRun({ runId }), base);
      expect(await readlink(path.join(base, 'latest'))).toBe(runId);
      expect(JSON.parse(await readFile(path.join(base, 'latest.json'), 'utf8'))).toMatchObject({ runId });
    });
  });
});
