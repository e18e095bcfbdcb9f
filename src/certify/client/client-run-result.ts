import type { Exchange } from '../../client/exchange.js';
import type { CaseResult, RateLimitPoint, Verdict, WebhookPoint } from '../../results/model.js';
import type { CertificationResult } from '../../results/run-result.js';
import { toolInfo } from '../../runner/tool-info.js';
import type { CertificateDraft, ClientIdentity, EvidenceDraft, TestDraft } from '../certificate/types.js';
import { CLIENT_PLAN } from './client-plan.js';
import type { GradedItem } from './client-check.js';
import { webhookDuplicateCheck, webhookForgedCheck, webhookStaleCheck } from './checks/webhooks.js';
import { isRead } from '../../mock/http/route-table.js';
import type { Observation, ObservedRequest, WebhookProbe } from './observed.js';
import type { ClientCommandOutcome } from './run-client-command.js';

/** What a finished client certification run knows, to be rendered as reports and a certificate. */
interface ClientRunFacts {
  runId: string;
  agencyId: string;
  baseUrl: string;
  hotelBaseUrl: string;
  mode: 'run' | 'interactive';
  startedAt: number;
  finishedAt: number;
  observation: Observation;
  items: GradedItem[];
  command?: ClientCommandOutcome;
  /** The client as the agency named it. */
  client?: ClientIdentity | undefined;
  notes: string[];
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A request of the client as an evidence exchange. */
function requestExchange(r: ObservedRequest, baseUrl: string): Exchange {
  const origin = new URL(baseUrl).origin;
  return {
    id: r.id,
    label: r.injected ? `injected: ${r.injected}` : `client ${r.method} ${r.path}`,
    request: { method: r.method, url: `${origin}${r.url}`, headers: flat(r.headers), ...(r.body.length > 0 ? { body: r.body.toString('utf8') } : {}) },
    response: { status: r.status, headers: r.responseHeaders, body: r.responseBody },
    ...(r.injected === 'cut-off-after-booking' ? { error: 'the mock cut this answer off mid-body on purpose' } : {}),
    startedAt: r.atMs,
    durationMs: 0,
  };
}

/** A webhook probe (the mock calling the client) as an evidence exchange. */
function probeExchange(p: WebhookProbe): Exchange {
  return {
    id: p.id,
    label: `webhook probe: ${p.kind}`,
    request: { method: 'POST', url: p.url, headers: p.headers, body: p.body },
    ...(p.status !== null ? { response: { status: p.status, headers: {}, body: '' } } : {}),
    ...(p.error !== undefined ? { error: p.error } : {}),
    startedAt: p.atMs,
    durationMs: p.durationMs,
  };
}

function allExchanges(f: ClientRunFacts): Exchange[] {
  return [...f.observation.requests.map((r) => requestExchange(r, f.baseUrl)), ...f.observation.probes.map(probeExchange)];
}

/** The run result of a client certification, for `writeReports`. */
export function clientRunResult(f: ClientRunFacts): CertificationResult {
  const cases: CaseResult[] = f.items.map((g) => ({
    id: g.item.id,
    kind: 'check',
    title: g.item.title,
    area: g.item.area,
    clause: g.item.clause,
    verdict: g.verdict,
    message: g.message,
    evidence: g.evidence,
    ...(g.details ? { details: g.details } : {}),
    startedAt: f.startedAt,
    durationMs: 0,
  }));
  const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length } as Record<Verdict, number> & { total: number };
  for (const c of cases) summary[c.verdict] += 1;
  const rateLimit: RateLimitPoint[] = f.observation.requests
    .filter((r) => r.agencyId !== null)
    .map((r) => {
      const retry = Number(r.responseHeaders['retry-after']);
      return {
        at: r.atMs,
        agency: r.agencyId!,
        bucket: isRead(r.method, r.path) ? 'read' : 'write',
        status: r.status,
        ...(r.responseHeaders['x-ratelimit-limit'] ? { limit: Number(r.responseHeaders['x-ratelimit-limit']) } : {}),
        ...(r.responseHeaders['x-ratelimit-remaining'] ? { remaining: Number(r.responseHeaders['x-ratelimit-remaining']) } : {}),
        ...(Number.isFinite(retry) && r.status === 429 ? { retryAfterS: retry } : {}),
      };
    });
  const webhooks: WebhookPoint[] = f.observation.probes.map((p) => ({
    at: p.atMs,
    eventId: p.headers['X-SVC-Webhook-Id'] ?? '',
    attempt: Number(p.headers['X-SVC-Webhook-Attempt'] ?? 1),
    status: p.status ?? 0,
    scheme: 'service',
    check: p.kind.startsWith('duplicate') ? webhookDuplicateCheck.id : p.kind === 'forged-signature' ? webhookForgedCheck.id : webhookStaleCheck.id,
  }));
  const failed = cases.some((c) => c.verdict !== 'PASS');
  return {
    schema: 'svc-harness/run@1',
    kind: 'certificate',
    runId: f.runId,
    command: 'certify-client',
    tool: toolInfo(),
    target: { name: 'mock in certification mode', baseUrl: f.baseUrl, hotelBaseUrl: f.hotelBaseUrl, clock: 'none', embedded: true },
    seed: 0,
    startedAt: new Date(f.startedAt).toISOString(),
    finishedAt: new Date(f.finishedAt).toISOString(),
    durationMs: f.finishedAt - f.startedAt,
    summary,
    verdict: failed ? 'FAIL' : 'PASS',
    cases,
    exchanges: allExchanges(f),
    timelines: { rateLimit, webhooks },
    notes: f.notes,
  };
}

function evidenceName(g: GradedItem): string {
  return `${g.item.id}-${g.item.slug}.json`;
}

/** The client certificate draft, for the generic `writeCertificate`. */
export function clientCertificateDraft(f: ClientRunFacts): CertificateDraft {
  const byId = new Map(allExchanges(f).map((x) => [x.id, x]));
  const tests: TestDraft[] = f.items.map((g) => {
    const evidence: EvidenceDraft[] = [
      {
        name: evidenceName(g),
        content: {
          plan: `${CLIENT_PLAN.id}@${CLIENT_PLAN.version}`,
          test: g.item.id,
          title: g.item.title,
          verdict: g.verdict,
          message: g.message,
          ...(g.details ? { details: g.details } : {}),
          exchanges: g.evidence.map((id) => byId.get(id)).filter((x): x is Exchange => x !== undefined),
        },
      },
    ];
    return { id: g.item.id, title: g.item.title, clause: g.item.clause, required: true, verdict: g.verdict, message: g.message, evidence };
  });
  const attachments: EvidenceDraft[] = [
    {
      name: 'all-requests.json',
      content: {
        what: "every request the client sent, with the answer it got, in arrival order; the mock's request log",
        exchanges: f.observation.requests.map((r) => requestExchange(r, f.baseUrl)),
      },
    },
    {
      name: 'webhook-probes.json',
      content: {
        what: "the deliveries the mock made to the client's webhook endpoint",
        webhook_url: f.observation.webhookUrl ?? null,
        exchanges: f.observation.probes.map(probeExchange),
      },
    },
  ];
  if (f.command) {
    const c = f.command;
    attachments.push({
      name: 'client-output.txt',
      content: `$ ${c.command}\n# exit ${c.exitCode ?? `signal ${c.signal ?? '?'}`}${c.timedOut ? ' (timed out)' : ''} after ${(c.durationMs / 1000).toFixed(1)} s\n${c.output}`,
    });
  }
  return {
    kind: 'client',
    plan: { ...CLIENT_PLAN },
    target: {
      base_url: f.baseUrl,
      hotel_base_url: f.hotelBaseUrl,
      mode: f.mode,
      command: f.command?.command ?? null,
      retry_after_s: f.observation.retryAfterS,
    },
    agency: f.agencyId,
    ...(f.client ? { client: f.client } : {}),
    startedAt: f.startedAt,
    finishedAt: f.finishedAt,
    tests,
    attachments,
    notes: f.notes,
  };
}
