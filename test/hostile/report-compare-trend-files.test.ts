import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCompareCommand } from '../../src/cli/commands/report-compare.js';
import { reportTrendCommand } from '../../src/cli/commands/report-trend.js';
import { renderJson } from '../../src/report/render-json.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { runCli } from '../helpers/run-cli.js';
import { sampleLoadResult } from '../load/_load-result.js';
import { sampleRun } from '../report/fixtures/sample-run.js';
import { fifo, histogramBomb, put, tempDir } from './_files.js';
import { inProcess, writeRunFolders } from './_reports.js';

/*
 * Issue 33: `report compare` and `report trend` read what they are given
 * through the defences `report merge` has (a regular file under a size cap,
 * bounded JSON, the report schema), and refuse a malformed report with exit 2
 * in one line that names the field, never with a stack trace (exit 70) or a hang.
 */

const dir = tempDir('svc-hostile-compare-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const suiteText = renderJson(sampleRun());
const loadRun = toRunResult(sampleLoadResult(40), {
  command: 'svc-harness load',
  profile: { name: 'mock', base_url: 'http://127.0.0.1:1' },
  embedded: true,
  startedIso: '2026-11-21T19:45:01.000Z',
  durationMs: 10_000,
  runId: '20261121-194501-aa01',
});
const loadText = renderJson(loadRun);
const goodSuite = put(dir, 'suite.json', suiteText);
const goodLoad = put(dir, 'load.json', loadText);

/** The suite report changed by `mutate` (through its object), written as `name`. */
function suiteWith(name: string, mutate: (r: Record<string, any>) => void): string {
  const r = JSON.parse(suiteText) as Record<string, any>;
  mutate(r);
  return put(dir, name, JSON.stringify(r));
}
function loadWith(name: string, mutate: (r: Record<string, any>) => void): string {
  const r = JSON.parse(loadText) as Record<string, any>;
  mutate(r);
  return put(dir, name, JSON.stringify(r));
}

async function compare(base: string, now: string) {
  const out = path.join(dir, `cmp-${path.basename(now)}`);
  return inProcess(() => reportCompareCommand({ base, new: now, out, json: true }));
}
async function trend(dirs: string[], last?: number) {
  const out = path.join(dir, `trend-${path.basename(dirs[0]!)}`);
  return inProcess(() => reportTrendCommand({ dirs, out, json: true, ...(last !== undefined ? { last } : {}) }));
}

/** Each malformed report, the report it is compared with, and what the one line must name. */
const CASES: Array<[string, () => string, string, RegExp]> = [
  ['cases: null', () => suiteWith('cases-null.json', (r) => (r.cases = null)), goodSuite, /cases must be array/],
  ['cases missing', () => suiteWith('cases-missing.json', (r) => delete r.cases), goodSuite, /cases is missing/],
  ['cases: a string', () => suiteWith('cases-string.json', (r) => (r.cases = 'all good')), goodSuite, /cases must be array/],
  ['cases holding nulls', () => suiteWith('cases-nulls.json', (r) => r.cases.push(null)), goodSuite, /cases\.\d+ must be object/],
  ['a runId of 42', () => suiteWith('runid.json', (r) => (r.runId = 42)), goodSuite, /runId must be string/],
  ['a startedAt of {}', () => suiteWith('started.json', (r) => (r.startedAt = {})), goodSuite, /startedAt must be string/],
  ['load: null', () => loadWith('load-null.json', (r) => (r.load = null)), goodLoad, /load must be object/],
  ['operations: null', () => loadWith('ops-null.json', (r) => (r.load.operations = null)), goodLoad, /load\.operations must be object/],
  [
    'a __proto__ key',
    () => put(dir, 'proto.json', suiteText.replace('"summary": {', '"summary": {"__proto__": {"polluted": 1},')),
    goodSuite,
    /key "__proto__" at summary/,
  ],
  [
    'a histogram that is not HDR',
    () => loadWith('not-hdr.json', (r) => (r.load.operations.all.histogram = Buffer.from('hello, histogram').toString('base64'))),
    goodLoad,
    /load\.operations\.all\.histogram: it is not a histogram of this harness/,
  ],
  [
    'a histogram that inflates to 200 MB',
    () => loadWith('bomb.json', (r) => (r.load.operations.all.histogram = histogramBomb(200 * 1024 * 1024))),
    goodLoad,
    /load\.operations\.all\.histogram: it is not a histogram of this harness/,
  ],
  ['a report of a later version', () => suiteWith('v2.json', (r) => (r.schema = 'svc-harness/run@2')), goodSuite, /its schema is svc-harness\/run@2/],
];

describe('report compare and report trend on malformed reports', () => {
  it.each(CASES)('%s: exit 2 in one line naming the field', async (_, make, good, names) => {
    const bad = make();
    // The trend charts figures, never histograms: it decodes none, and a bad one is refused by compare (as by merge) alone.
    const trendReads = !/histogram/.test(String(names));
    for (const r of [await compare(good, bad), await compare(bad, good), ...(trendReads ? [await trend([bad])] : [])]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(names);
    }
  });

  it('a file that is no report (/etc/passwd, a text file) is refused without quoting a character of it', async () => {
    const passwd = put(dir, 'passwd', 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n');
    for (const r of [await compare(goodSuite, passwd), await trend([passwd])]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not valid JSON/);
      expect(r.stderr).not.toMatch(/root|daemon|bash/);
    }
    const notReport = put(dir, 'secret.json', '{"schema":"password=hunter2","kind":"suite"}');
    const r = await compare(goodSuite, notReport);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/hunter2/);
  });

  it('a report.json that is a FIFO or /dev/zero is refused at once, never waited on or read whole', async () => {
    const pipe = fifo(dir, 'fifo.json');
    const run = path.join(dir, 'fifo-run');
    mkdirSync(run);
    symlinkSync(pipe, path.join(run, 'report.json'));
    const zero = path.join(dir, 'zero-run');
    mkdirSync(zero);
    symlinkSync('/dev/zero', path.join(zero, 'report.json'));
    for (const r of [await compare(goodSuite, pipe), await compare(goodSuite, run), await trend([run]), await trend([zero])]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/named pipe \(FIFO\)|a device/);
    }
  });

  it('report compare draws a load of 200 000 seconds of series without a stack overflow', async () => {
    const seconds = Array.from({ length: 200_000 }, (_, i) => ({ second: 1000 + i, requests: 0, ok: 0, rateLimited: 0, errors: 0, histogram: '' }));
    const long = loadWith('long.json', (r) => (r.load.series = seconds));
    const r = await compare(goodLoad, long);
    expect(r.stderr).toBe('');
    expect([0, 1]).toContain(r.code);
  }, 60_000);

  it('report trend --last 1 reads the newest run only: an older malformed one is never parsed', async () => {
    const reports = path.join(dir, 'last');
    writeRunFolders(reports, 3, loadRun);
    const oldest = path.join(reports, '20261121-194501-0000', 'report.json');
    writeFileSync(oldest, '{"schema": "svc-harness/run@1", "kind": "suite", "cases": null');
    expect((await trend([reports])).code).toBe(2);
    const r = await trend([reports], 1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('the CLI gives the same one line and exit 2 (not 70 with a stack trace)', async () => {
    const bad = suiteWith('cli-cases-null.json', (r) => (r.cases = null));
    for (const args of [
      ['report', 'compare', goodSuite, bad, '-o', path.join(dir, 'cli-cmp')],
      ['report', 'trend', bad, '-o', path.join(dir, 'cli-trend')],
    ]) {
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/cases must be array/);
    }
  });
});
