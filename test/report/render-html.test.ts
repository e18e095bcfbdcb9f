import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/render-html.js';
import { renderLoadSection } from '../../src/report/html/load-section.js';
import { EVIDENCE_BODY_LIMIT, formatBody, renderExchange } from '../../src/report/html/evidence.js';
import { HOSTILE, sampleLoad, sampleLoadRun, sampleRun } from './fixtures/sample-run.js';

function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}">`);
  if (start < 0) return '';
  return page.slice(start, page.indexOf('</section>', start));
}

describe('renderHtml', () => {
  const result = sampleRun();
  const page = renderHtml(result);

  it('fetches nothing: no network references, a CSP that forbids loads', () => {
    expect(page).not.toMatch(/\b(?:src|href|action|poster|srcset|xlink:href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(page).not.toMatch(/url\(|@import|<link\b|<iframe\b|<img\b/i);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
  });

  it('keeps hostile evidence inert', () => {
    // Only the page's own script element exists; the hostile `</script>` bodies arrive escaped.
    expect(page.match(/<script/gi)).toHaveLength(1);
    expect(page.match(/<\/script/gi)).toHaveLength(1);
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const raw of [HOSTILE.script, HOSTILE.img]) expect(page).not.toContain(raw);
    expect(page).toContain('&lt;img src=&quot;http://evil.example/x.png&quot; onerror=&quot;alert(2)&quot;&gt;');
    expect(page).toContain('expected 401 &lt;b&gt;&amp;&lt;/b&gt;');
    expect(page).toContain('evt-&lt;b&gt;9c2&lt;/b&gt;');
    expect(page).not.toContain('\u0007');
    expect(page).not.toContain('\u0000');
  });

  it('shows the verdict and counts in the banner', () => {
    expect(page).toMatch(/<div class="verdict verdict-fail"><strong>FAIL<\/strong><span>4 of 15 failing<\/span>/);
    expect(page).toMatch(/<b>3<\/b><span>Failed<\/span>/);
    const passing = renderHtml(
      sampleRun({
        verdict: 'PASS',
        cases: result.cases.filter((c) => c.verdict === 'PASS'),
        summary: { PASS: 9, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: 9 },
      }),
    );
    expect(passing).toMatch(/verdict-pass"><strong>PASS<\/strong><span>9 of 9 passed/);
  });

  it('has a tile per area with its clauses, and a row per case failures first', () => {
    const areas = section(page, 'areas');
    expect(areas.match(/class="area w-/g)).toHaveLength(12);
    expect(areas).toContain('SPEC §8.3 rolling one-minute window');
    const rows = [...section(page, 'cases').matchAll(/<tr data-verdict="(\w+)" class="case/g)].map((m) => m[1]);
    expect(rows).toHaveLength(result.cases.length);
    expect(rows.slice(0, 5)).toEqual(['FAIL', 'FAIL', 'FAIL', 'ERROR', 'WARN']);
    for (const c of result.cases)
      expect(section(page, 'cases')).toContain(
        `class="case-id" href="#${c.verdict === 'FAIL' || c.verdict === 'ERROR' ? 'failure' : 'case'}-${c.id.replace(/[^A-Za-z0-9_-]/g, '-')}">${c.id}</a>`,
      );
  });

  it('puts evidence behind <details>, pretty-printed and cut at about 4 KiB', () => {
    const withEvidence = result.cases.filter((c) => c.evidence.length > 0 || (c.details && Object.keys(c.details).length > 0));
    expect(page.match(/<details class="evidence">/g)).toHaveLength(withEvidence.length);
    expect(page).toContain('&quot;agency_id&quot;: &quot;AG-1001&quot;');
    expect(page).toMatch(/Truncated: showing 4,0\d\d of [\d,]+ bytes/);
    expect(page).not.toContain('off-59');
    expect(page).toContain('x-999999</span><span class="muted">exchange not recorded');
  });

  it('draws the rate-limit timeline: one panel per agency and bucket, every point, refusals apart, the limit', () => {
    const rl = section(page, 'rate-limit');
    expect(rl.match(/class="panel chart rate-limit-panel"/g)).toHaveLength(2);
    expect(rl).toContain('AG-1001 · read');
    expect(rl).toContain('AG-1001 · write');
    const admitted = result.timelines.rateLimit.filter((p) => p.status !== 429).length;
    const refused = result.timelines.rateLimit.length - admitted;
    // Every point once in the whole-run plots (a zoom on a burst draws some of them again).
    const whole = [...rl.matchAll(/<svg[^>]*aria-label="Rate-limit timeline [^"]*">([\s\S]*?)<\/svg>/g)].map((m) => m[1]).join('');
    expect(whole.match(/<circle /g)).toHaveLength(admitted);
    expect(whole.match(/<path d=/g)).toHaveLength(refused);
    expect(rl).toContain('>limit 60</text>');
    expect(rl).toContain('>limit 20</text>');
    expect(rl).toContain('Retry-After 50 s');
  });

  it('draws the webhook timeline: a row per event, a numbered mark per attempt coloured by status', () => {
    const wh = section(page, 'webhooks');
    expect(wh.match(/class="webhook-row"/g)).toHaveLength(3);
    expect(wh.match(/<circle /g)).toHaveLength(result.timelines.webhooks.length);
    expect(wh).toContain('evt-7a1 attempt 3 at +90 s: HTTP 200 (WH-01)');
    expect(wh).toMatch(/fill="#cf222e"\/><text[^>]*>2<\/text>/);
  });

  it('leaves out empty charts, and the load section of a suite run', () => {
    const bare = renderHtml(sampleRun({ timelines: { rateLimit: [], webhooks: [] } }));
    expect(bare).not.toContain('<section id="rate-limit">');
    expect(bare).not.toContain('<section id="webhooks">');
    expect(page).not.toContain('<section id="load">');
  });

  it('charts a load run: figures, gates, the operations table, throughput, latency and the spectrum, hostile names inert', () => {
    const load = section(renderHtml(sampleLoadRun()), 'load');
    expect(load).toContain('4 140 requests in 30 s · 138 rps · 429 0.9% · errors 0.05%');
    expect(load).toContain(
      '<th scope="row">search</th><td>2940</td><td>2910</td><td>30</td><td>0</td><td>0</td><td>41</td><td>97</td><td>182</td><td>240</td><td>240</td>',
    );
    expect(load).toContain('Throughput per second');
    expect(load).toContain('Latency over time');
    expect(load).toContain('Latency by percentile');
    expect(load.match(/<td class="gate-mark"[^>]*>✓<\/td>/g)).toHaveLength(1);
    expect(load).not.toMatch(/<script|<img/i);
    expect(renderLoadSection(sampleLoad())).toBe(load.slice(load.indexOf('\n') + 1, load.lastIndexOf('\n')));
  });
});

describe('formatBody', () => {
  it('pretty-prints JSON and leaves other text alone', () => {
    expect(formatBody('{"a":1}').text).toBe('{\n  "a": 1\n}');
    expect(formatBody('{not json').text).toBe('{not json');
  });

  it('cuts at a character boundary within the byte limit', () => {
    const out = formatBody('é'.repeat(EVIDENCE_BODY_LIMIT));
    expect(Buffer.byteLength(out.text)).toBe(EVIDENCE_BODY_LIMIT);
    expect(out.text).toBe('é'.repeat(EVIDENCE_BODY_LIMIT / 2));
    expect(out.truncated).toMatch(/showing 4,096 of 8,192 bytes/);
  });
});

describe('a body cut at capture', () => {
  it('says how large the whole body was and its SHA-256, not that report.json has it', () => {
    const sha = 'ab'.repeat(32);
    const page = renderExchange({
      id: 'x-000001',
      request: { method: 'GET', url: 'http://t.example/v1/wallet/rates', headers: {} },
      response: { status: 200, headers: {}, body: 'a'.repeat(65536), bytes: 104857600, sha256: sha, truncated: true },
      startedAt: 0,
      durationMs: 1,
    });
    expect(page).toContain('104,857,600-byte body');
    expect(page).toContain(sha);
    expect(page).not.toContain('report.json has the whole body');
  });
});
