import { describe, expect, it } from 'vitest';
import { burstOf, inUseSeries, renderRateLimitTimeline } from '../../src/report/html/rate-limit-chart.js';
import { axisTimeLabel } from '../../src/report/html/svg.js';
import type { RateLimitPoint } from '../../src/results/model.js';

const pt = (at: number, status: number, remaining?: number, limit = 3): RateLimitPoint => ({
  at,
  agency: 'a',
  bucket: 'read',
  status,
  limit,
  ...(remaining !== undefined ? { remaining } : {}),
});

describe('rate-limit timeline', () => {
  it('plots what the service reports in use (limit − remaining), a refusal at the limit', () => {
    const s = inUseSeries([pt(0, 200, 2), pt(10, 200, 1), pt(20, 200, 0), pt(30, 429, 0), pt(60_001, 200, 2)]);
    expect(s.map((d) => d.y)).toEqual([1, 2, 3, 3, 1]);
  });

  it('counts the admitted requests of the last window when no Remaining is reported, so an over-admission rises above the limit', () => {
    const s = inUseSeries([pt(0, 200), pt(10, 200), pt(20, 200), pt(30, 200), pt(70_000, 200)]);
    expect(s.map((d) => d.y)).toEqual([1, 2, 3, 4, 1]);
  });
});

describe('rate-limit timeline panels', () => {
  const burst = [
    ...Array.from({ length: 60 }, (_, i) => pt(i * 20, i < 58 ? 200 : 429, Math.max(0, 57 - i), 58)),
    pt(300_000, 200, 57, 58),
    pt(600_000, 404, 57, 58),
  ];
  const quiet: RateLimitPoint[] = [
    { at: 0, agency: 'b', bucket: 'read', status: 200, limit: 600, remaining: 599 },
    { at: 1000, agency: 'b', bucket: 'write', status: 405, limit: 60, remaining: 59 },
  ];

  it('draws only buckets with activity and names the quiet ones in a line', () => {
    const out = renderRateLimitTimeline([...burst, ...quiet]);
    expect(out.match(/class="panel chart rate-limit-panel"/g)).toHaveLength(1);
    expect(out).toContain('a · read');
    expect(out).toContain('Not drawn, never past half their limit and never refused: b · read (1 request, limit 600), b · write (1 request, limit 60).');
  });

  it('labels a time axis in one unit and puts every mark colour in the legend', () => {
    const out = renderRateLimitTimeline(burst);
    const whole = /aria-label="Rate-limit timeline a · read">([\s\S]*?)<\/svg>/.exec(out)?.[1] ?? '';
    const ticks = [...whole.matchAll(/text-anchor="middle">([^<]*)<\/text>/g)].map((m) => m[1]!).filter((t) => /\d/.test(t));
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks.every((t) => / min$/.test(t))).toBe(true);
    for (const entry of ['admitted (2xx)', 'admitted but 4xx', 'admitted but 5xx', 'refused (429)', 'limit per window']) expect(out).toContain(entry);
    // The 404 is drawn in the 4xx colour that the legend names.
    expect(out).toMatch(/<circle [^>]*fill="#b35900"/);
    expect(axisTimeLabel(90)(30)).toBe('30 s');
    expect(axisTimeLabel(600)(120)).toBe('2 min');
  });

  it('zooms onto a dense burst of a long panel', () => {
    expect(burstOf([0, 0.1, 0.2, 40])).toBeUndefined();
    const b = burstOf([...Array.from({ length: 30 }, (_, i) => 5 + i * 0.05), 300]);
    expect(b).toMatchObject({ count: 30 });
    expect(b!.fromS).toBeLessThan(5);
    expect(b!.toS).toBeGreaterThan(6.45);
    const out = renderRateLimitTimeline(burst);
    expect(out).toMatch(/Zoom on the burst: 60 requests from \+0 s to \+1\.4 s/);
    expect(out).toContain('aria-label="Rate-limit burst a · read"');
  });
});

describe('the clock of the rate-limit timeline', () => {
  // Ten minutes of the mock's clock, moved forward by the harness in a run of 3.5 s.
  const points = [
    ...Array.from({ length: 60 }, (_, i) => pt(i * 20, i < 58 ? 200 : 429, Math.max(0, 57 - i), 58)),
    pt(300_000, 200, 57, 58),
    pt(600_000, 200, 57, 58),
  ];

  it("says the axis is the mock's clock and how long the run really took", () => {
    const out = renderRateLimitTimeline(points, { control: 'mock-admin', runMs: 3_500 });
    expect(out).toContain('these requests span 10 min of mock time, while the whole run took 3.5 s of real time');
    expect(out).toContain('>time since first request, on the mock&#39;s clock</text>');
  });

  it('says real time against a target whose clock the harness cannot move', () => {
    const out = renderRateLimitTimeline(points, { control: 'none', runMs: 600_000 });
    expect(out).not.toContain('mock time');
    expect(out).toContain('>time since first request (real time)</text>');
  });
});
