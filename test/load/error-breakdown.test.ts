import { describe, expect, it } from 'vitest';
import { loadSummaryLines } from '../../src/cli/load-summary.js';
import { evaluateLoadGates } from '../../src/load/gate/load-metrics.js';
import { parseThresholds } from '../../src/load/gate/gates.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { mergeLoadResults } from '../../src/load/merge/merge-load-results.js';
import { validateLoadResult } from '../../src/load/merge/validate-load-part.js';
import { renderLoadSection } from '../../src/report/html/load-section.js';
import { loadResultOf } from './_load-result.js';
import { req } from './_request.js';

/** Bookings: 3 answered 201, two 402 INSUFFICIENT_FUNDS and a 500 the service gave, a 502 the scenario provoked, one that never came. */
function run() {
  const rec = new LoadRecorder({ rateLimitedStatus: 429 });
  for (let i = 0; i < 3; i++)
    rec.record(req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_000 + i, receivedAt: 1_000_010 + i, latencyMs: 10, status: 201 }));
  rec.record(
    req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_100, receivedAt: 1_000_110, latencyMs: 10, status: 402, code: 'INSUFFICIENT_FUNDS' }),
  );
  rec.record(
    req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_200, receivedAt: 1_000_210, latencyMs: 10, status: 402, code: 'INSUFFICIENT_FUNDS' }),
  );
  rec.record(req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_300, receivedAt: 1_000_310, latencyMs: 10, status: 500 }));
  rec.record(
    req({
      op: 'book',
      agency: 'agency-1',
      bucket: 'write',
      sentAt: 1_000_400,
      receivedAt: 1_000_410,
      latencyMs: 10,
      status: 502,
      expected: true,
      code: 'SUPPLIER_UNAVAILABLE',
    }),
  );
  rec.record(req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_500, receivedAt: 1_000_510, latencyMs: 0, status: 0 }));
  const load = loadResultOf(rec);
  load.errorRate = load.totals.errors / load.totals.requests;
  load.gates = evaluateLoadGates(load, parseThresholds(['errors.rate<0.01', 'book.errors.count<1']));
  return load;
}

describe('errors broken down by status and error.code', () => {
  it('report.json holds the breakdown, and a merge adds it up exactly', () => {
    const load = run();
    expect(load.operations.book).toMatchObject({
      errors: 4,
      expected: 1,
      errorsBy: { '402 INSUFFICIENT_FUNDS': 2, '500': 1, none: 1 },
      expectedBy: { '502 SUPPLIER_UNAVAILABLE': 1 },
    });
    expect(() => validateLoadResult(JSON.parse(JSON.stringify(load)), 'a.json')).not.toThrow();
    const merged = mergeLoadResults([load, { ...run(), shards: [] }]);
    expect(merged.operations.all!.errorsBy).toEqual({ '402 INSUFFICIENT_FUNDS': 4, '500': 2, none: 2 });
  });

  it('the console, the HTML table and a broken gate’s card show what the figure holds', () => {
    const load = run();
    const text = loadSummaryLines(load).join('\n');
    expect(text).toMatch(
      /errors [\d.]+% \(402 INSUFFICIENT_FUNDS × 2, 500 × 1, no answer × 1\) \(and 1 refusals provoked on purpose: 502 SUPPLIER_UNAVAILABLE × 1\)/,
    );
    expect(text).toMatch(
      /✗ errors\.rate<0\.01: .*\n {6}errors by status and code: 402 INSUFFICIENT_FUNDS × 2, 500 × 1, no answer × 1; not counted, refusals the load provoked on purpose: 502 SUPPLIER_UNAVAILABLE × 1/,
    );
    expect(text).toMatch(/✗ book\.errors\.count<1: .*\n {6}errors by status and code: 402 INSUFFICIENT_FUNDS × 2/);
    const page = renderLoadSection(load);
    expect(page).toContain('<caption>Errors and refusals provoked on purpose, by status and error.code</caption>');
    expect(page).toMatch(/<code>402 INSUFFICIENT_FUNDS<\/code><\/td><td>2<\/td>/);
    expect(page).toMatch(/<code>errors\.rate&lt;0\.01<\/code><div class="gate-behind muted">errors by status and code: 402 INSUFFICIENT_FUNDS × 2/);
  });
});
