import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/render-html.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { gateFigures } from '../../src/results/gate-units.js';
import { sampleLoad, sampleLoadRun } from './fixtures/sample-run.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { reconcileWallet, WalletTally } from '../../src/load/judge/wallet-reconciliation.js';
import { req } from '../load/_request.js';

describe('the load report', () => {
  const load = sampleLoad();
  load.gates = [
    {
      id: 'gate:search.p95<200ms',
      source: 'search.p95<200ms',
      passed: false,
      actual: 5398.527,
      expected: '< 200',
      message: 'search.p95 = 5398.53 (breaks < 200)',
    },
    {
      id: 'gate:errors.rate<0.01',
      source: 'errors.rate<0.01',
      passed: false,
      actual: 0.0329,
      expected: '< 0.01',
      message: 'errors.rate = 0.03 (breaks < 0.01)',
    },
    { id: 'gate:rps>=500', source: 'rps>=500', passed: true, actual: 612.44, expected: '>= 500', message: 'rps = 612.44 (within >= 500)' },
  ];
  const base = sampleLoadRun();
  const gateCase = {
    ...base.cases[0]!,
    id: 'gate:search.p95<200ms',
    kind: 'gate' as const,
    area: 'load' as const,
    verdict: 'FAIL' as const,
    message: 'search.p95 = 5398.53 (breaks < 200)',
    evidence: [],
  };
  const page = renderHtml(sampleLoadRun({ load, seed: 0, cases: [...base.cases, gateCase], target: { ...base.target, clock: 'mock-admin' } }));

  it('shows the clock the load ran in and no made-up seed', () => {
    const banner = page.slice(0, page.indexOf('</section>'));
    expect(banner).toContain('Clock <b>real time</b>');
    expect(banner).not.toContain('mock-admin');
    expect(banner).not.toContain('Seed <b>0</b>');
  });

  it("says in summary.md that the load ran in real time, whatever the target's clock control", () => {
    const md = renderMarkdown(sampleLoadRun({ load, target: { ...base.target, clock: 'mock-admin' } }));
    expect(md).toMatch(/^- Target: .*, clock: real time$/m);
    expect(md).not.toContain('mock-admin');
  });

  it('keeps the units of its gates, with ✓ and ✗', () => {
    expect(gateFigures(load.gates[0]!)).toMatchObject({ metric: 'search.p95', actual: '5 398.5 ms', limit: '< 200 ms', bound: 200, kind: 'latency' });
    expect(gateFigures(load.gates[1]!)).toMatchObject({ actual: '3.29%', limit: '< 1%' });
    expect(gateFigures(load.gates[2]!)).toMatchObject({ actual: '612 rps', limit: '>= 500 rps' });
    expect(page).toMatch(/>✗<\/td><td><code>search\.p95&lt;200ms<\/code><\/td><td>5 398\.5 ms<\/td><td>&lt; 200 ms<\/td>/);
    expect(page).toMatch(/>✓<\/td><td><code>rps&gt;=500<\/code><\/td><td>612 rps<\/td>/);
    expect(page).toContain('<p class="msg">search.p95 measured 5 398.5 ms, bound &lt; 200 ms</p>');
  });

  it('labels the y-axes of its charts and draws latency gates as threshold lines', () => {
    // Latency over time and by percentile of every response, and by percentile of the searches that search.p95 measures.
    expect(page.match(/rotate\(-90\)" text-anchor="middle" font-size="10">response latency \(ms\)<\/text>/g)).toHaveLength(3);
    expect(page).toContain('>responses per second</text>');
    // One line per latency gate, on the chart of the series it measures; none for rates or throughput.
    expect(page.match(/>gate search\.p95 &lt; 200 ms<\/text>/g)).toHaveLength(1);
    expect(page).not.toContain('>gate errors.rate');
  });

  it('draws a gate on one operation over that operation, never over every response', () => {
    const charts = page.split('<figure class="chart">').slice(1);
    const titled = (t: string) => charts.find((c) => c.includes(`<figcaption>${t}</figcaption>`));
    expect(titled('Latency by percentile of search (the series its gate measures)')).toContain('>gate search.p95 &lt; 200 ms</text>');
    // The searches' own p99 (182 ms) is drawn under it, not every response's 240 ms max.
    expect(titled('Latency by percentile of search (the series its gate measures)')).toContain('search p99: 182 ms');
    expect(titled('Latency over time (every response, per second)')).not.toContain('>gate search.p95');
    expect(titled('Latency by percentile (HDR histogram of every response)')).not.toContain('>gate search.p95');
  });
});

describe('the load report of a run pushed past its limits', () => {
  // 92 answers of 100 are 429s in 1 ms: the 2xx latency (40 ms) must read on its own.
  const rec = new LoadRecorder({ rateLimitedStatus: 429 });
  for (let i = 0; i < 100; i++)
    rec.record(
      req({
        op: 'search',
        agency: 'ag-1',
        bucket: 'read',
        sentAt: 1_000_000 + i,
        receivedAt: 1_000_000 + i + 1,
        latencyMs: i < 8 ? 40 : 1,
        status: i < 8 ? 200 : 429,
      }),
    );
  const figures = rec.figures();
  const tally = new WalletTally({ rateLimitedStatus: 429 });
  tally.booking('ag-1', 201, 'bk1', 581_800);
  const wallet = reconcileWallet(
    { agency: 'ag-1', opening: 1_000_000, closing: 418_200, currency: 'EUR', entries: [{ id: 'e1', type: 'debit', amount: 581_800, bookingId: 'bk1' }] },
    tally.of('ag-1'),
  );
  const load = { ...sampleLoad(), operations: figures.operations, verdicts: [wallet], gates: [] };
  const page = renderHtml(sampleLoadRun({ load }));

  it('shows the latency of 2xx answers apart from the 429s', () => {
    expect(figures.operations.all!.latency.p50).toBeLessThan(2);
    expect(page).toMatch(
      /<tr class="outcome-2xx"><th scope="rowgroup" rowspan="2">every operation<\/th><td class="outcome">.*?2xx<\/td><td>8<\/td><td>40(\.\d\d)?<\/td>/,
    );
    expect(page).toMatch(/<tr class="outcome-429"><td class="outcome">.*?429<\/td><td>92<\/td><td>1(\.\d\d)?<\/td>/);
    expect(page).toContain('Latency by percentile, every response and each outcome');
    expect(page).toMatch(/<p class="legend">.*every response.*2xx.*429<\/p>/);
  });

  it('states wallet amounts in their currency', () => {
    expect(wallet.message).toContain('balance moved -5 818.00 EUR: 10 000.00 EUR − 5 818.00 EUR + 0.00 EUR = 4 182.00 EUR');
    expect(page).toMatch(
      /<table class="load-wallets">.*<th scope="row">ag-1<\/th>.*<td>10 000\.00 EUR<\/td><td>−5 818\.00 EUR<\/td><td>0\.00 EUR<\/td><td>4 182\.00 EUR<\/td><td>-5 818\.00 EUR<\/td>/,
    );
  });

  it('stacks the labels of latency gates at the same bound instead of drawing them over each other', () => {
    const gates = [
      { id: 'gate:search.2xx.p95<200ms', source: 'search.2xx.p95<200ms', passed: true, actual: 40, expected: '< 200', message: '' },
      { id: 'gate:search.2xx.p99<200ms', source: 'search.2xx.p99<200ms', passed: true, actual: 40, expected: '< 200', message: '' },
    ];
    const twoGates = renderHtml(sampleLoadRun({ load: { ...load, gates } }));
    const labelY = (label: string): string[] =>
      [...twoGates.matchAll(new RegExp(`<text x="[^"]+" y="([^"]+)"[^>]*>gate ${label.replace(/[.]/g, '\\.')} &lt; 200 ms</text>`, 'g'))].map((m) => m[1]!);
    const plain = labelY('search.2xx.p95');
    const ok = labelY('search.2xx.p99');
    expect(plain.length).toBeGreaterThan(0);
    expect(ok).toHaveLength(plain.length);
    plain.forEach((y, i) => expect(Math.abs(Number(y) - Number(ok[i]))).toBeGreaterThanOrEqual(12));
  });
});
