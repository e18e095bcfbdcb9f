import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { HOSTILE, sampleLoad, sampleLoadRun, sampleRun } from './fixtures/sample-run.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { req } from '../load/_request.js';

/** Splits a Markdown table row on unescaped pipes. */
function cells(row: string): string[] {
  return row
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('renderMarkdown', () => {
  const result = sampleRun();
  const md = renderMarkdown(result);

  it('opens with the verdict and counts', () => {
    const [title, , verdict] = md.split('\n');
    expect(title).toBe('# ❌ FAIL: svc-harness run 20261121-194501-ab12');
    expect(verdict).toBe('**FAIL**: 3 failed, 1 error, 1 warning, 1 skipped, 9 passed of 15 cases.');
    expect(md).toContain('- Seed: `1234567`');
  });

  it('lists every case id in the area tables, each row with five cells', () => {
    const rows = md.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toHaveLength(result.cases.length);
    for (const c of result.cases) expect(rows.some((r) => r.startsWith(`| \`${c.id}\` |`))).toBe(true);
    for (const r of rows) expect(cells(r)).toHaveLength(5);
    const auth2 = rows.find((r) => r.includes('AUTH-02'));
    expect(auth2).toContain('expected 401 &lt;b&gt;&amp;&lt;/b&gt; \\| pipe');
  });

  it('shows failures first, with clause, evidence and replay', () => {
    const failures = md.indexOf('## Failures');
    const byArea = md.indexOf('## Results by area');
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(byArea);
    const block = md.slice(failures, byArea);
    expect([...block.matchAll(/^### (\w+) `([^`]+)`/gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'FAIL AUTH-02',
      'FAIL RL-03',
      'FAIL property:idempotency-model',
      'ERROR IDEM-02',
    ]);
    expect(block).toContain('x-000007 [RL-03 write 20]: POST http://127.0.0.1:41234/v1/flights/quotes → 201');
    expect(block).toContain('- Clause: SPEC §8.3 rolling one-minute window');
    expect(md).toContain('- `property:idempotency-model`: `svc-harness run --only property:idempotency-model --seed 1234567 --path "36:0:1"`');
  });

  it('never lets hostile text become markup', () => {
    expect(md).not.toMatch(/<script|<\/script|<img|<b>/i);
    expect(md).toContain('Hostile note &lt;/script&gt;');
  });

  it('renders the figures of a load run, percentiles as columns, and no load section for a suite run', () => {
    const load = renderMarkdown(sampleLoadRun());
    expect(load).toContain('## Load');
    const header = load.split('\n').find((l) => l.startsWith('| Operation |'))!;
    expect(cells(header)).toEqual([
      'Operation',
      'count',
      'ok',
      'rateLimited',
      'errors',
      'statuses.200',
      'statuses.429',
      'latency.count',
      'latency.min',
      'latency.mean',
      'latency.p50',
      'latency.p90',
      'latency.p95',
      'latency.p99',
      'latency.p99\\_9',
      'latency.max',
    ]);
    expect(load).toContain('| search | 2940 | 2910 | 30 | 0 | 2910 | 30 | 2940 | 1 | 45.10 | 41 | 97 | 139.50 | 182 | 240 | 240 |');
    expect(load).toContain('- connections: 16');
    expect(load).toContain('- rps: 138');
    expect(load).not.toMatch(/<script|<\/script/i);
    expect(load).toContain(`| ${HOSTILE.script.replace(/</g, '&lt;').replace(/>/g, '&gt;')} | 1200 |`);
    expect(md).not.toContain('## Load');
  });

  it('follows each operation of a load with its latency by outcome, 2xx apart from 429s', () => {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    for (let i = 0; i < 10; i++)
      rec.record(
        req({
          op: 'search',
          agency: 'ag-1',
          bucket: 'read',
          sentAt: 1_000_000 + i,
          receivedAt: 1_000_001 + i,
          latencyMs: i < 2 ? 40 : 1,
          status: i < 2 ? 200 : 429,
        }),
      );
    const md = renderMarkdown(sampleLoadRun({ load: { ...sampleLoad(), operations: rec.figures().operations } }));
    const rows = md.split('\n').filter((l) => l.startsWith('| search') || l.startsWith('| all'));
    expect(rows.map((r) => cells(r)[0])).toEqual(['search', 'search 2xx', 'search 429', 'all', 'all 2xx', 'all 429']);
    const header = cells(md.split('\n').find((l) => l.startsWith('| Operation |'))!);
    const ok = Object.fromEntries(cells(rows[1]!).map((c, i) => [header[i]!, c]));
    // Counts and statuses stay blank on an outcome row; its latency count and median are its own.
    expect(ok).toMatchObject({
      count: '',
      ok: '',
      rateLimited: '',
      'statuses.429': '',
      'latency.count': '2',
      'latency.p50': expect.stringMatching(/^40(\.\d+)?$/),
    });
    expect(Object.fromEntries(cells(rows[2]!).map((c, i) => [header[i]!, c]))).toMatchObject({
      'latency.count': '8',
      'latency.p50': expect.stringMatching(/^1(\.\d+)?$/),
    });
  });
});
