import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import type { CaseResult } from '../../src/results/model.js';
import { differingPairs } from '../../src/report/_internal/body-diff.js';
import { runCli } from '../helpers/run-cli.js';

function write(id: string, o: { url?: string; key?: string; status?: number; body: string; request?: string }): Exchange {
  return {
    id,
    request: {
      method: 'POST',
      url: o.url ?? 'http://t.example/v1/flights/bookings',
      headers: o.key !== undefined ? { 'idempotency-key': o.key } : {},
      body: o.request ?? '{"quote_token":"q1"}',
    },
    response: { status: o.status ?? 201, headers: {}, body: o.body },
    startedAt: 0,
    durationMs: 1,
  };
}

describe('the pairs a failure card compares', () => {
  it('pairs writes with the same Idempotency-Key only: two searches with the same body are no replay', () => {
    const searches = [
      write('s1', { url: 'http://t.example/v1/flights/search', body: '{"results":[1]}' }),
      write('s2', { url: 'http://t.example/v1/flights/search', body: '{"results":[2]}' }),
    ];
    expect(differingPairs(searches)).toEqual([]);
    const otherKeys = [write('b1', { key: 'k1', body: 'a' }), write('b2', { key: 'k2', body: 'b' })];
    expect(differingPairs(otherKeys)).toEqual([]);
  });

  it('puts the named broken pair first, then replays whose bytes alone differ, then a 409 beside a 201', () => {
    const original = write('x-1', { key: 'k0', body: '{"booking_id":"bk_1"}' });
    const inUse = write('x-2', { key: 'k0', status: 409, body: '{"error":{"code":"IDEMPOTENCY_KEY_IN_USE"}}' });
    const regenerated = write('x-3', { key: 'k0', body: '{"booking_id":"bk_1","note":"regenerated"}' });
    const again = write('x-4', { key: 'k0', body: '{"booking_id":"bk_1","note":"again"}' });
    const run = [original, inUse, regenerated, again];
    expect(differingPairs(run).map((p) => [p.first.id, p.second.id])).toEqual([
      ['x-1', 'x-3'],
      ['x-1', 'x-4'],
      ['x-1', 'x-2'],
    ]);
    expect(differingPairs(run, run, { original: 'x-1', replay: 'x-4' }).map((p) => [p.first.id, p.second.id])).toEqual([
      ['x-1', 'x-4'],
      ['x-1', 'x-3'],
      ['x-1', 'x-2'],
    ]);
  });
});

describe('the idempotency-model failure card against a mock whose replays differ', () => {
  it('shows the shrunk counterexample’s broken replay first: the original write and its replay with the same key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-replay-pair-'));
    const { code, stdout, stderr } = await runCli([
      'run',
      '--mock-defects',
      'fixed-window,replay-differs',
      '--only',
      'property:idempotency-model',
      '--seed',
      '49672974',
      '--report-dir',
      dir,
      '--json',
    ]);
    expect(code, stderr).toBe(1);
    const { report_dir: reportDir } = JSON.parse(stdout) as { report_dir: string };
    const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as { cases: CaseResult[]; exchanges: Exchange[] };
    const c = report.cases.find((x) => x.id === 'property:idempotency-model')!;
    expect(c.verdict).toBe('FAIL');
    const pair = c.details?.replayPair as { original: string; replay: string };
    expect(c.evidence.slice(0, 2)).toEqual([pair.original, pair.replay]);
    const byId = new Map(report.exchanges.map((x) => [x.id, x]));
    const [original, replay] = [byId.get(pair.original)!, byId.get(pair.replay)!];
    // A replay pair: two writes with the same Idempotency-Key, the replay answered with other bytes.
    expect(original.request.url).toMatch(/\/bookings$/);
    expect(replay.request.headers['idempotency-key']).toBe(original.request.headers['idempotency-key']);
    expect(replay.response!.body).not.toBe(original.response!.body);
    const html = await readFile(join(reportDir, 'report.html'), 'utf8');
    const card = html.slice(
      html.indexOf('<article class="failure" id="failure-property'),
      html.indexOf('</article>', html.indexOf('<article class="failure" id="failure-property')),
    );
    const sides = [...card.matchAll(/<h4>(Original|Again)[^<]*· (x-\d+) ·/g)].map((m) => m[2]);
    expect(sides.slice(0, 2)).toEqual([pair.original, pair.replay]);
    expect(card).not.toMatch(/<h4>(Original|Again)[^<]*quote for/);
  });
});
