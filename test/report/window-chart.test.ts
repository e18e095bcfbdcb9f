import { describe, expect, it } from 'vitest';
import { judgeBucket } from '../../src/load/judge/load-verdicts.js';
import { MAX_TIMELINE_BINS, windowTimeline } from '../../src/load/judge/window-timeline.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import type { BucketLog } from '../../src/load/measure/load-recorder.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJson } from '../../src/report/render-json.js';
import { windowDrawing } from '../../src/report/html/window-chart.js';
import { validateRunReport } from '../../src/report/schema/validate-report.js';
import type { LoadVerdict } from '../../src/results/load-result.js';
import { sampleLoadResult } from '../load/_load-result.js';

const T0 = Date.parse('2026-11-28T15:40:00.000Z');

/** A write bucket's log: each row admitted (201) or refused (429), answered 20 ms after it was sent. */
function bucket(rows: Array<[atMs: number, status: number]>): BucketLog {
  return {
    agency: 'agency-1',
    bucket: 'write',
    rateLimitedStatus: 429,
    sentAt: rows.map((r) => T0 + r[0]),
    receivedAt: rows.map((r) => T0 + r[0] + 20),
    status: rows.map((r) => r[1]),
    retryAfterS: rows.map((r) => (r[1] === 429 ? 30 : Number.NaN)),
    remaining: rows.map(() => Number.NaN),
  };
}

// Limit 3 per 60 s: three admitted in the first two seconds, a 429, then a fourth admitted at +30.5 s, inside the same window.
const OVER = bucket([
  [0, 201],
  [400, 201],
  [1_500, 201],
  [2_000, 429],
  [30_500, 201],
  [70_000, 201],
]);
const windowVerdict = (log: BucketLog): LoadVerdict => judgeBucket(log, 3, 60_000).find((v) => v.kind === 'window-limit')!;

function loadRun(verdicts: LoadVerdict[]) {
  const meta = { command: 'svc-harness load', profile: { name: 'mock', base_url: 'http://127.0.0.1:1' }, embedded: true, durationMs: 80_000 };
  return toRunResult(sampleLoadResult(20, { verdicts }), { ...meta, startedIso: new Date(T0).toISOString() });
}

describe('the drawing of a window over the limit', () => {
  it('shades the window the verdict names and marks the request it names first over the limit', () => {
    const v = windowVerdict(OVER);
    expect(v.verdict).toBe('FAIL');
    expect(v.message).toContain('#5');
    const d = windowDrawing(v.details)!;
    // Seconds since the window's start: the window is [0, 60), the first over sent at +30.5 s.
    expect(d.shade).toEqual({ fromS: 0, toS: 60 });
    expect(d.marker).toEqual({ atS: 30.5, ref: '#5', count: 4 });
    expect(d).toMatchObject({ limit: 3, windowS: 60, admittedInWindow: 4, windowStart: T0, windowEnd: T0 + 60_000 });
    // What the window admitted so far reaches the limit in its second second and passes it in the second the marker is in.
    expect(d.running.find((p) => p.count > d.limit)).toEqual({ atS: 31, count: 4 });
    expect(d.running.at(-1)).toEqual({ atS: 60, count: 4 });
    // One bar a second, by send time, the 429 in none; the admission at +70 s falls past the margin after the window (a sixth of it, 10 s).
    expect(d.bins.filter((b) => b.admitted > 0).map((b) => [b.fromS, b.admitted])).toEqual([
      [0, 2],
      [1, 1],
      [30, 1],
    ]);
    expect(d.toS).toBe(70);
    // Nothing before the window: the bucket's traffic began with it.
    expect(d.fromS).toBe(0);
  });

  it('keeps the timeline bounded whatever the traffic and the window', () => {
    const hour = 3_600_000;
    const many = Array.from({ length: 200_000 }, (_, i) => ({ sentAt: T0 + i * 50, receivedAt: T0 + i * 50 + 5, admitted: true }));
    const t = windowTimeline(many, T0 + hour, hour);
    expect(t.admitted.length).toBeLessThanOrEqual(MAX_TIMELINE_BINS);
    expect(t.counted.length).toBe(t.admitted.length);
    expect(t.binMs).toBeGreaterThan(1000);
    // A minute's window around a long load: the minute and 10 s on each side, one bin a second.
    const minute = windowTimeline(many, T0 + 5_000_000, 60_000);
    expect(minute).toMatchObject({ binMs: 1000, from: T0 + 4_990_000 });
    expect(minute.admitted).toHaveLength(80);
  });

  it('is nothing for a passing verdict, or details without a timeline (a report of an older version)', () => {
    const pass = windowVerdict(bucket([[0, 201]]));
    expect(pass.verdict).toBe('PASS');
    expect(windowDrawing(pass.details)).toBeUndefined();
    const { timeline: _, ...older } = windowVerdict(OVER).details;
    expect(windowDrawing(older)).toBeUndefined();
  });
});

describe("the failing window's card", () => {
  it('draws the window in the card of a failing window verdict, and no window drawing for a passing load', () => {
    const failing = renderHtml(loadRun([windowVerdict(OVER)]));
    const card = failing.slice(failing.indexOf('<article class="failure" id="failure-load-window-limit'), failing.indexOf('</article>'));
    expect(card).toContain('<figure class="chart window-chart"><svg');
    expect(card).toContain('class="window-shade"');
    expect(card).toContain('class="window-first-over"');
    expect(card).toContain('#5 first over the limit (+30.5 s)');
    expect(card).toContain('>limit 3</text>');
    expect(card).not.toContain('<script');
    const passing = renderHtml(loadRun([windowVerdict(bucket([[0, 201]]))]));
    expect(passing).not.toContain('<figure class="chart window-chart">');
    expect(passing).not.toContain('window-first-over');
  });

  it("keeps report.json valid with the timeline, and refuses one past the timeline's bound", () => {
    const doc = JSON.parse(renderJson(loadRun([windowVerdict(OVER)]))) as { load: { verdicts: Array<{ details: { timeline: { admitted: number[] } } }> } };
    expect(doc.load.verdicts[0]!.details.timeline.admitted.length).toBeGreaterThan(0);
    expect(() => validateRunReport(doc, 'report.json')).not.toThrow();
    doc.load.verdicts[0]!.details.timeline.admitted = new Array<number>(MAX_TIMELINE_BINS + 1).fill(1);
    expect(() => validateRunReport(doc, 'report.json')).toThrow(/timeline/);
  });
});
