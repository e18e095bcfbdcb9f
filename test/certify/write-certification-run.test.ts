import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CertificateDraft } from '../../src/certify/certificate/types.js';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import { latestTarget } from '../../src/report/write-reports.js';

const draft: CertificateDraft = {
  kind: 'service',
  plan: { id: 'svc-agency-cert', version: '1', title: 'plan' },
  target: { base_url: 'http://127.0.0.1:1', profile: 'p', embedded: false },
  agency: 'agency-alpha',
  startedAt: Date.parse('2026-01-01T00:00:00Z'),
  finishedAt: Date.parse('2026-01-01T00:01:00Z'),
  tests: [
    { id: 'T-01', title: 'signs requests', required: true, verdict: 'PASS', message: 'ok', evidence: [{ name: 'T-01.json', content: { a: 1 } }] },
    { id: 'T-02', title: 'keeps idempotency', required: true, verdict: 'FAIL', message: 'replay differs, secret s3cret-value-123 leaked', evidence: [] },
  ],
};

describe('a certification is written like every run', () => {
  it('reports with JUnit in the run folder, latest pointed at it, the certificate inside, secrets redacted', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'cert-run-'));
    try {
      const w = await writeCertificationRun(
        base,
        draft,
        { runId: '20260101-000000-abcd', command: 'svc-harness certify', targetName: 'p', baseUrl: 'http://127.0.0.1:1', embedded: false },
        { secrets: ['s3cret-value-123'] },
      );
      expect(w.reports.dir).toBe(path.join(base, '20260101-000000-abcd'));
      expect(await latestTarget(base)).toBe('20260101-000000-abcd');
      expect((await readdir(w.reports.dir)).sort()).toEqual([
        '.svc-harness-files.json',
        'certificate',
        'junit.xml',
        'report.html',
        'report.json',
        'summary.md',
      ]);
      expect(w.certificate.dir).toBe(path.join(w.reports.dir, 'certificate'));
      const junit = await readFile(path.join(w.reports.dir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testcase [^>]*name="T-01 signs requests"[^>]*\/>/);
      expect(junit).toMatch(/<testcase [^>]*name="T-02 keeps idempotency"[^>]*>\s*<failure/);
      expect(junit).not.toContain('s3cret-value-123');
      expect(JSON.parse(await readFile(path.join(base, 'latest.json'), 'utf8'))).toMatchObject({ verdict: 'FAIL' });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
