/**
 * Cost of redacting a big report: a run result of N exchanges shaped like the
 * reference API's answers (search results with quote tokens, ids, times,
 * each body with its base64 copy), 1% of them echoing a secret in some form.
 * The figure is the redactor's CPU time over that of rendering the same
 * result to JSON (report.json), both in this process, so machines and loads
 * compare. A redactor module can be named to measure another one against the
 * same data (an earlier version, copied out of git).
 *
 *   node --import tsx bench/hostile/redaction.bench.ts [exchanges=4000] [redactorModule]
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const exchanges = Number(process.argv[2] ?? 4000);
const modulePath = process.argv[3] ?? path.join(import.meta.dirname, '../../src/profile/redactor.ts');
const { redactor } = (await import(pathToFileURL(path.resolve(modulePath)).href)) as { redactor: (s: string[]) => <T>(v: T) => T };

const secrets = [
  'sk_alpha/Echo+Secret=0123456789abcdefXYZ',
  'whsec_alpha-echo_webhook-2222',
  'hk.alpha.echo.three.3333',
  'hwh/alpha+echo_four==',
  'sk_beta/Other+Agency=98765zz',
  'whsec_beta-echo_webhook-5555',
  'hk.beta.echo.seven.7777',
  'hwh/beta+echo_eight==',
];

function body(i: number): string {
  const results = Array.from({ length: 6 }, (_, k) => ({
    id: `htl_${(i * 7 + k).toString(16).padStart(8, '0')}`,
    name: `Hotel ${k} of search ${i}`,
    price: { amount: 100 + k * 13.5, currency: 'EUR' },
    quote_token: `qt_${Buffer.from(`${i}-${k}-quote-token-padding`).toString('base64url')}`,
    quote_expires_at: new Date(1_795_000_000_000 + i * 1000).toISOString(),
  }));
  const echo =
    i % 100 === 0
      ? { echoed: Buffer.from(`x${secrets[i % secrets.length]}`).toString('base64'), hex: Buffer.from(secrets[(i + 1) % secrets.length]!).toString('hex') }
      : {};
  return JSON.stringify({ request_id: `req_${i}`, results, ...echo });
}

const result = {
  schema: 'svc-harness/run@1',
  runId: '20261125-000000-0000',
  target: { name: 'bench', baseUrl: 'http://127.0.0.1:1/v1' },
  cases: Array.from({ length: 60 }, (_, i) => ({ id: `XX-${i}`, verdict: 'PASS', message: `case ${i} passed with 12 requests`, evidence: [`x-${i}`] })),
  exchanges: Array.from({ length: exchanges }, (_, i) => {
    const b = body(i);
    return {
      id: `x-${String(i).padStart(6, '0')}`,
      label: `QT-01 search ${i}`,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/v1/hotels/search',
        headers: { authorization: 'SVC-HMAC-SHA256 KeyId=ak_alpha, Signature=3q2+7w==', 'x-svc-nonce': `n-${i}`, 'x-svc-timestamp': '1795000000' },
        body: '{"city":"PAR","nights":2}',
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': `req_${i}`, 'x-ratelimit-remaining': '58' },
        body: b,
        bodyBase64: Buffer.from(b).toString('base64'),
      },
      startedAt: 1_795_000_000_000 + i,
      durationMs: 1.5,
    };
  }),
};

const redact = redactor(secrets);
// CPU time of this process, not wall time: on a shared machine the wait for a core is not the code's cost.
const time = (f: () => unknown): number => {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
};
// Warm up both, then take the best of five of each.
redact(result);
JSON.stringify(result, null, 2);
const redactMs = Math.min(...Array.from({ length: 5 }, () => time(() => redact(result))));
const renderMs = Math.min(...Array.from({ length: 5 }, () => time(() => JSON.stringify(result, null, 2))));
const bytes = Buffer.byteLength(JSON.stringify(result, null, 2));
console.log(
  JSON.stringify({
    module: path.relative(process.cwd(), modulePath),
    exchanges,
    reportMb: +(bytes / 1e6).toFixed(1),
    redactCpuMs: +redactMs.toFixed(1),
    renderJsonCpuMs: +renderMs.toFixed(1),
    ratio: +(redactMs / renderMs).toFixed(2),
  }),
);
