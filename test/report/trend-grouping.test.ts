import { describe, expect, it } from 'vitest';
import type { ReadRun } from '../../src/report/compare/read-run.js';
import { renderTrendHtml } from '../../src/report/trend/render-trend-html.js';
import { trendPoints } from '../../src/report/trend/trend-points.js';
import type { LoadRunResult } from '../../src/results/run-result.js';
import { sampleLoad, sampleLoadRun, sampleRun } from './fixtures/sample-run.js';

const T0 = sampleLoad().startedAt;

function load(runId: string, o: { target: string; startMs: number; shards?: Array<{ index: number; count: number }>; rps?: number }): ReadRun {
  const base = sampleLoadRun();
  const result: LoadRunResult = {
    ...base,
    runId,
    startedAt: new Date(T0 + o.startMs).toISOString(),
    target: { ...base.target, name: o.target, baseUrl: `https://${o.target}.example/v1`, embedded: false },
    load: { ...sampleLoad(), shards: o.shards ?? [], startedAt: T0 + o.startMs, finishedAt: T0 + o.startMs + 30_000, rps: o.rps ?? 100 },
  };
  return { file: `${runId}/report.json`, result };
}

describe('report trend keeps targets apart and counts traffic once', () => {
  it('drops the shards a merge among the runs holds, and keeps shards whose merge is absent', () => {
    const runs = [
      load('shard-1', { target: 'staging', startMs: 0, shards: [{ index: 1, count: 2 }] }),
      load('shard-2', { target: 'staging', startMs: 200, shards: [{ index: 2, count: 2 }] }),
      load('merged', {
        target: 'staging',
        startMs: 0,
        shards: [
          { index: 1, count: 2 },
          { index: 2, count: 2 },
        ],
      }),
      // A later pair of shards, never merged, and a shard of another target at the same time: both stay.
      load('lone-shard', { target: 'staging', startMs: 3_600_000, shards: [{ index: 1, count: 2 }] }),
      load('other-target', { target: 'prod', startMs: 100, shards: [{ index: 1, count: 2 }] }),
    ];
    expect(trendPoints(runs).map((p) => p.runId)).toEqual(['merged', 'lone-shard', 'other-target']);
  });

  it('names each run’s target, draws one series per target, and no two series alike', () => {
    const points = trendPoints([
      load('a1', { target: 'staging', startMs: 0, rps: 100 }),
      load('b1', { target: 'prod', startMs: 60_000, rps: 900 }),
      load('a2', { target: 'staging', startMs: 120_000, rps: 110 }),
      { file: 'suite/report.json', result: sampleRun({ runId: 'suite-1', startedAt: new Date(T0 + 180_000).toISOString() }) },
    ]);
    expect(points.map((p) => p.target)).toEqual([
      'staging (https://staging.example/v1)',
      'prod (https://prod.example/v1)',
      'staging (https://staging.example/v1)',
      'reference mock (embedded mock)',
    ]);
    const page = renderTrendHtml(points);
    expect(page).toContain('<th class="left">target</th>');
    expect(page).toContain('<td class="left">prod (https://prod.example/v1)</td>');
    // Throughput: one line per target, never one line through both.
    expect(page).toContain('throughput · staging (https://staging.example/v1)');
    expect(page).toContain('throughput · prod (https://prod.example/v1)');
    // Every drawn line differs from every other of its chart in colour or dash.
    for (const svg of page.split('<svg').slice(1)) {
      const looks = [...svg.matchAll(/<polyline class="series"[^>]*>/g)].map(
        (m) => `${/stroke="([^"]+)"/.exec(m[0])?.[1]} ${/stroke-dasharray="([^"]+)"/.exec(m[0])?.[1] ?? ''}`,
      );
      expect(new Set(looks).size).toBe(looks.length);
    }
  });

  it('spaces the time axis labels so that none overlaps another', () => {
    // 16 runs a few seconds apart: labels carry seconds (`11-21 19:45:07`, about 85 px at 10 px type).
    const points = trendPoints(Array.from({ length: 16 }, (_, i) => load(`r${i}`, { target: 'staging', startMs: i * 7_000 })));
    const page = renderTrendHtml(points);
    for (const svg of page.split('<svg').slice(1)) {
      const xs = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" font-size="10">\d{2}-\d{2} [\d:]+<\/text>/g)].map((m) => Number(m[1]));
      expect(xs.length).toBeGreaterThan(1);
      for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!, svg.slice(0, 80)).toBeGreaterThanOrEqual(90);
    }
  });
});
