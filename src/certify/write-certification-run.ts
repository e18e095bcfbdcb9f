import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { redactor } from '../profile/redactor.js';
import type { CaseResult, Verdict } from '../results/model.js';
import type { CertificationResult } from '../results/run-result.js';
import { recordRunFiles } from '../report/run-manifest.js';
import { writeReports, type WrittenReports } from '../report/write-reports.js';
import { toolInfo } from '../runner/tool-info.js';
import type { CertificateDraft } from './certificate/types.js';
import { writeCertificate, type WrittenCertificate } from './certificate/write-certificate.js';

/** The run result of a certification, a case per test of the plan, so that it gets the reports (JUnit included) every run gets. */
export function certificationRunResult(
  draft: CertificateDraft,
  meta: { runId: string; command: string; targetName: string; baseUrl: string; embedded: boolean },
): CertificationResult {
  const durationMs = Math.max(0, draft.finishedAt - draft.startedAt);
  const cases: CaseResult[] = draft.tests.map((t) => ({
    id: t.id,
    kind: 'check',
    title: t.title,
    area: t.area ?? 'contract',
    clause: t.clause ?? `${draft.plan.id}@${draft.plan.version}`,
    verdict: t.verdict,
    message: t.message,
    evidence: [],
    details: { required: t.required, evidence_files: t.evidence.map((e) => `certificate/evidence/${e.name}`) },
    startedAt: draft.startedAt,
    durationMs: 0,
  }));
  const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length } as Record<Verdict, number> & { total: number };
  for (const c of cases) summary[c.verdict] += 1;
  return {
    schema: 'svc-harness/run@1',
    kind: 'certificate',
    runId: meta.runId,
    command: meta.command,
    tool: toolInfo(),
    target: { name: meta.targetName, baseUrl: meta.baseUrl, hotelBaseUrl: null, clock: 'none', embedded: meta.embedded },
    seed: 0,
    startedAt: new Date(draft.startedAt).toISOString(),
    finishedAt: new Date(draft.finishedAt).toISOString(),
    durationMs,
    summary,
    verdict: summary.FAIL + summary.ERROR > 0 ? 'FAIL' : 'PASS',
    cases,
    exchanges: [],
    timelines: { rateLimit: [], webhooks: [] },
    notes: [`certification plan ${draft.plan.id}@${draft.plan.version} for agency ${draft.agency}; the certificate is in certificate/`, ...(draft.notes ?? [])],
  };
}

/**
 * Writes a certification like every run: the reports into
 * `<reportDir>/<run id>/` (report.json, junit.xml, summary.md, report.html),
 * `<reportDir>/latest` pointed at it, then the certificate into its
 * `certificate/` folder. Secrets are redacted from both.
 */
export async function writeCertificationRun(
  reportDir: string,
  draft: CertificateDraft,
  meta: Parameters<typeof certificationRunResult>[1],
  options: { secrets: readonly string[]; signKey?: KeyObject | undefined },
): Promise<{ reports: WrittenReports; certificate: WrittenCertificate }> {
  const reports = await writeReports(redactor([...options.secrets])(certificationRunResult(draft, meta)), reportDir);
  const certificate = await writeCertificate(path.join(reports.dir, 'certificate'), draft, {
    secrets: options.secrets,
    ...(options.signKey ? { signKey: options.signKey } : {}),
  });
  await recordRunFiles(reports.dir, certificate.files);
  return { reports, certificate };
}
