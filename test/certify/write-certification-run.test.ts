import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CertificateDraft } from '../../src/certify/certificate/types.js';
import { writeCertificationRun } from '../../src/certify/write-certification-run.js';
import { latestTarget } from '../../src/report/write-reports.js';
import { PLAN_V1 } from '../../src/certify/plan/plan-v1.js';

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

describe('a practice certification run', () => {
  it('says PRACTICE in report.html and summary.md, groups the tests by their area, and has no seed', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'cert-run-'));
    try {
      const practice: CertificateDraft = {
        ...draft,
        target: { base_url: 'http://127.0.0.1:1/v1', profile: 'reference', embedded: true },
        tests: PLAN_V1.checks.map((c) => ({
          id: c.id,
          title: c.title,
          required: c.required,
          area: c.area,
          verdict: 'PASS' as const,
          message: 'ok',
          evidence: [],
        })),
      };
      const w = await writeCertificationRun(
        base,
        practice,
        { runId: '20260101-000000-beef', command: 'svc-harness certify', targetName: 'reference', baseUrl: 'http://127.0.0.1:1/v1', embedded: true },
        { secrets: [] },
      );
      const page = await readFile(path.join(w.reports.dir, 'report.html'), 'utf8');
      expect(page).toContain('<span class="practice-tag">PRACTICE</span><strong>PASS</strong>');
      expect(page).not.toContain('class="verdict verdict-pass"');
      expect(page).toContain('Seed <b>none</b> (a certification draws nothing at random)');
      const areas = [...page.matchAll(/<span class="area-name">([a-z]+)<\/span>/g)].map((m) => m[1]);
      expect(areas.sort()).toEqual(['auth', 'contract', 'idempotency', 'isolation', 'quotes', 'ratelimit', 'wallet', 'webhooks']);
      const json = JSON.parse(await readFile(path.join(w.reports.dir, 'report.json'), 'utf8')) as { cases: Array<{ id: string; area: string }> };
      expect(Object.fromEntries(json.cases.map((c) => [c.id, c.area]))).toMatchObject({ 'CERT-01': 'auth', 'CERT-05': 'idempotency', 'CERT-08': 'ratelimit' });
      const md = await readFile(path.join(w.reports.dir, 'summary.md'), 'utf8');
      expect(md).toMatch(/^# ✅ PRACTICE PASS/);
      expect(md).toContain('- Seed: none (a certification draws nothing at random)');
      // certificate.json keeps its format: the area is the run's, not the certificate's.
      const cert = JSON.parse(await readFile(path.join(w.certificate.dir, 'certificate.json'), 'utf8')) as { tests: Array<Record<string, unknown>> };
      expect(cert.tests[0]).not.toHaveProperty('area');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
