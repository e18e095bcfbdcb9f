import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportMergeCommand } from '../../src/cli/commands/report-merge.js';
import { HarnessError } from '../../src/errors/harness-error.js';
import { runCli } from '../helpers/run-cli.js';
import { histogramBomb, hugeRangeHistogram, put, shardReport, tempDir } from './_files.js';
import { rmSync } from 'node:fs';

const dir = tempDir('svc-hostile-merge-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good2 = put(dir, 'shard2.json', JSON.stringify(shardReport(2)));

/** Shard 1 as JSON text, changed by `edit` (text, so that keys such as `__proto__` survive as written). */
function shard1(name: string, edit: (json: string) => string): string {
  return put(dir, name, edit(JSON.stringify(shardReport(1))));
}

/** Sets one field of shard 1's load result through its object (`mutate`), then writes it. */
function shard1With(name: string, mutate: (load: Record<string, any>) => void): string {
  const report = shardReport(1) as unknown as { runId: string; load: Record<string, any> };
  mutate(report.load);
  return put(dir, name, JSON.stringify(report));
}

async function merge(file: string): Promise<unknown> {
  const out = path.join(dir, `out-${path.basename(file)}`);
  mkdirSync(out, { recursive: true });
  return reportMergeCommand({ files: [file, good2], out, json: false });
}

/** Each crafted shard, and what the refusal must name. */
const CASES: Array<[string, () => string, RegExp]> = [
  [
    'a __proto__ key among the operations',
    () => shard1('proto.json', (j) => j.replace('"operations":{', '"operations":{"__proto__":{"count":1},')),
    /key "__proto__" at operations/,
  ],
  ['a constructor key among the statuses', () => shard1('ctor.json', (j) => j.replace('"statuses":{', '"statuses":{"constructor":1,')), /key "constructor"/],
  ['a count of 1e308', () => shard1With('e308.json', (l) => (l.operations.all.count = 1e308)), /operations\.all\.count must be <= 1000000000000/],
  [
    'a count of 1e400 (Infinity once parsed)',
    () => shard1('e400.json', (j) => j.replace(/"requests":\d+/, '"requests":1e400')),
    /totals\.requests must be <= /,
  ],
  ['a count of "NaN"', () => shard1With('nan.json', (l) => (l.totals.requests = 'NaN')), /totals\.requests must be integer/],
  ['a negative count', () => shard1With('neg.json', (l) => (l.operations.search.ok = -5)), /operations\.search\.ok must be >= 0/],
  ['operations: null', () => shard1With('null-ops.json', (l) => (l.operations = null)), /operations must be object/],
  ['operations missing', () => shard1With('no-ops.json', (l) => delete l.operations), /operations is missing/],
  ['no `all` operation', () => shard1With('no-all.json', (l) => delete l.operations.all), /operations\.all is missing/],
  ['series that is not a list', () => shard1With('series.json', (l) => (l.series = { 0: 1 })), /series must be array/],
  [
    'a verdict of an unknown kind',
    () => shard1With('verdict.json', (l) => (l.verdicts = [{ id: 'x', kind: 'k', agency: 'a', verdict: 'MAYBE', message: '' }])),
    /verdicts\.0\.verdict must be equal to one of/,
  ],
  ['shards: "1/2"', () => shard1With('shards-text.json', (l) => (l.shards = '1/2')), /shards must be array/],
  ['shards: [{count: 1e9}]', () => shard1With('shards-1e9.json', (l) => (l.shards = [{ index: 1, count: 1e9 }])), /shards\.0\.count must be <= 1024/],
  ['a shard index beyond its count', () => shard1With('shard-index.json', (l) => (l.shards = [{ index: 3, count: 2 }])), /shard 3\/2 is beyond its count/],
  [
    'a huge-range HDR histogram',
    () =>
      shard1With('huge-range.json', (l) => {
        const h = hugeRangeHistogram([1e15, 1e15, 2e15]);
        l.operations.search.histogram = h;
        l.operations.search.latency.count = 3;
      }),
    /operations\.search\.histogram: its range or precision .* is not this harness's/,
  ],
  [
    'a histogram that is not HDR',
    () => shard1With('not-hdr.json', (l) => (l.operations.all.histogram = Buffer.from('hello, histogram').toString('base64'))),
    /operations\.all\.histogram: it is not a histogram of this harness/,
  ],
  [
    'a histogram that inflates to 200 MB',
    () => shard1With('bomb.json', (l) => (l.operations.all.histogram = histogramBomb(200 * 1024 * 1024))),
    /operations\.all\.histogram: it is not a histogram of this harness/,
  ],
  [
    'a histogram whose values disagree with its latency count',
    () => shard1With('count-mismatch.json', (l) => (l.operations.search.latency.count = 3)),
    /operations\.search\.histogram holds 20 values, but its latency says 3/,
  ],
  ['counts that do not add up', () => shard1With('sum.json', (l) => (l.operations.search.count = 999)), /add up to 20, not its count 999/],
  [
    'nesting 100 000 levels deep',
    () =>
      shard1('deep.json', (j) =>
        j.replace(
          '"verdicts":[]',
          `"verdicts":[{"id":"x","kind":"k","agency":"a","verdict":"PASS","message":"","details":{"d":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]`,
        ),
      ),
    /nests arrays and objects deeper than 64 levels/,
  ],
  [
    'nesting 40 levels deep inside the load result',
    () =>
      shard1('deep-40.json', (j) =>
        j.replace(
          '"verdicts":[]',
          `"verdicts":[{"id":"x","kind":"k","agency":"a","verdict":"PASS","message":"","details":{"d":${'['.repeat(40)}${']'.repeat(40)}}}]`,
        ),
      ),
    /nested deeper than 32 levels/,
  ],
  [
    '32 MiB of [0,0,…]: 16 million values, 580 MB once parsed',
    () => put(dir, 'zeros.json', `[${'0,'.repeat(16 * 1024 * 1024 - 2)}0]`),
    /holds more than 1000000 values/,
  ],
  [
    '32 MiB of [[[…]]]: 16 million levels, 1.7 GB and 18 s once parsed',
    () => put(dir, 'deep-32m.json', `${'['.repeat(16 * 1024 * 1024 - 1)}${']'.repeat(16 * 1024 * 1024 - 1)}`),
    /deeper than 64 levels/,
  ],
  ['not JSON', () => put(dir, 'garbage.json', '{"load": {"schema": "svc-harness/load@1", '), /is not valid JSON/],
  ['no load result', () => put(dir, 'other.json', '{"runId": "x"}'), /holds no load result/],
];

describe('report merge refuses a crafted shard with exit 2 naming the problem', () => {
  it.each(CASES)('%s', async (_what, make, message) => {
    const file = make();
    const err = await merge(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).exitCode).toBe(2);
    expect((err as HarnessError).message).toContain(file);
    expect((err as HarnessError).message).toMatch(message);
  });

  it('still merges the two good shards', async () => {
    const good1 = put(dir, 'shard1.json', JSON.stringify(shardReport(1)));
    await expect(merge(good1)).resolves.toMatchObject({ kind: 'load' });
  });

  it('the CLI ends at once with one line and exit 2 for shards: [{count: 1e9}] (the merge once built a billion-long list)', async () => {
    const file = shard1With('cli-1e9.json', (l) => (l.shards = [{ index: 1, count: 1e9 }]));
    const run = await runCli(['report', 'merge', file, good2, '-o', path.join(dir, 'cli-out')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/shards\.0\.count must be <= 1024/);
  });
});
