import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { put, shardReport, tempDir } from './_files.js';
// @ts-expect-error a plain script of the recipe, without types
import { extractReports } from '../../examples/k8s/extract-reports.mjs';
// @ts-expect-error a plain script of the recipe, without types
import { BEGIN, END, reportLines } from '../../examples/k8s/shard.mjs';

/*
 * Issue 33, item 6: examples/k8s/extract-reports.mjs on logs a tester
 * crafted. Each bad block is one line on stderr, the run exits 2 and writes
 * nothing; a bomb is refused after the cap, not inflated. Runs of the script
 * as a process check the exit, stderr and files; its export the rest.
 */

const dir = tempDir('svc-hostile-k8s-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = 'examples/k8s/extract-reports.mjs';
const extract = extractReports as (log: string, options?: { maxBytes?: number }) => Map<string, string>;
const lines = reportLines as (shard: string, json: string) => string[];
const MiB = 1024 * 1024;

/** The log lines of a block labelled `label` around `gzip` (any bytes), as shard.mjs prints them. */
function rawBlock(label: string, gzip: Buffer): string[] {
  return [`${BEGIN as string} ${label}`, ...(gzip.toString('base64').match(/.{1,76}/g) ?? []), END as string];
}

/** `log` lines as `kubectl logs --prefix` prints them for `pod`. */
const prefixed = (pod: string, log: string[]): string[] => log.map((l) => `[pod/${pod}/load] ${l}`);

/** The two shards' reports, as shard.mjs would print them. */
const REPORT1 = JSON.stringify(shardReport(1));
const REPORT2 = JSON.stringify(shardReport(2));

/** The lines of two lists taken in turn, as two pods' logs interleave. */
function interleave(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...(i < a.length ? [a[i]!] : []), ...(i < b.length ? [b[i]!] : []));
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
  ms: number;
  maxRssMiB: number;
}

let runs = 0;
/** The script as a user runs it, on `log` written to a file, into a fresh out folder; with its peak memory. */
function run(log: string[] | string): Promise<Run> {
  const name = `run-${++runs}`;
  const file = put(dir, `${name}.log`, typeof log === 'string' ? log : log.join('\n') + '\n');
  const out = path.join(dir, name, 'reports');
  const rss = path.join(dir, `${name}.rss`);
  // The child's peak resident memory, written as it exits (KiB).
  const preload = `data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(${JSON.stringify(rss)},String(process.resourceUsage().maxRSS)))`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', preload, SCRIPT, file, out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, out, ms: performance.now() - started, maxRssMiB: existsSync(rss) ? Number(readFileSync(rss, 'utf8')) / 1024 : NaN }),
    );
  });
}

/** A run refused as bad input: exit 2, one line per bad block that matches `problems` in order, a last line saying nothing was written, no stack trace, no file. */
function expectRefused(r: Run, ...problems: RegExp[]): void {
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.code, r.stderr).toBe(2);
  const said = r.stderr.trimEnd().split('\n');
  expect(said, r.stderr).toHaveLength(problems.length + 1);
  problems.forEach((p, i) => expect(said[i]).toMatch(p));
  expect(said.at(-1)).toMatch(/nothing written/);
  expect(existsSync(r.out), 'no report folder').toBe(false);
  expect(r.stdout).toBe('');
}

/** What `extractReports` threw: its message, one line per bad block (its `problems`), for input that is bad (exit 2). */
function thrown(log: string[], options?: { maxBytes?: number }): string {
  try {
    extract(log.join('\n'), options);
  } catch (err) {
    const { name, exitCode, problems, message } = err as Error & { exitCode: number; problems: string[] };
    expect({ name, exitCode }).toEqual({ name: 'BadLogError', exitCode: 2 });
    expect(problems.join('\n')).toBe(message);
    return message;
  }
  throw new Error('extractReports took the log');
}

describe('examples/k8s/extract-reports.mjs on hostile logs', () => {
  // 64 MiB of zeros: 64 KiB once gzipped.
  const zeros = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });

  it('a gzip bomb is refused quickly, after the cap and not inflated', () => {
    const started = performance.now();
    const message = thrown(rawBlock('1/1', zeros), { maxBytes: MiB });
    expect(message).toMatch(/line 1: shard 1\/1: its report inflates to more than the 1 MiB accepted/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a 256 MiB bomb through the script: one line naming the shard, exit 2, in bounded memory', async () => {
    // Four gzip members of 64 MiB of zeros each, one stream: 256 MiB inflated, 256 KiB in the log.
    const bomb = Buffer.concat([zeros, zeros, zeros, zeros]);
    const r = await run([...prefixed('svc-harness-load-0-abc', lines('2/2', REPORT2)), ...prefixed('svc-harness-load-1-def', rawBlock('1/2', bomb))]);
    expectRefused(r, /line \d+ \(pod\/svc-harness-load-1-def\/load\): shard 1\/2: its report inflates to more than the 32 MiB accepted/);
    expect(r.ms).toBeLessThan(10_000);
    // Node itself takes about 45 MiB; the cap 32 MiB more. The script before this test inflated it all in 1 GiB.
    expect(r.maxRssMiB).toBeLessThan(160);
  });

  it('two pods whose lines interleave (kubectl logs --prefix): each report comes back whole', async () => {
    const log = interleave(prefixed('svc-harness-load-0-abc', lines('1/2', REPORT1)), prefixed('svc-harness-load-1-def', lines('2/2', REPORT2)));
    // A line of another tool, too long to be a line of base64 (1 MiB), in the middle: skipped.
    log.splice(20, 0, `[pod/svc-harness-load-0-abc/load] ${'A'.repeat(MiB)}`);
    expect([...extract(log.join('\n')).entries()]).toEqual([
      ['1/2', REPORT1],
      ['2/2', REPORT2],
    ]);
    const r = await run(log);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(path.join(r.out, 'shard-1', 'report.json'), 'utf8')).toBe(REPORT1);
    expect(readFileSync(path.join(r.out, 'shard-2', 'report.json'), 'utf8')).toBe(REPORT2);
  });

  it('a second block with the same shard label is refused, both places named, and nothing is written', async () => {
    const forged = JSON.stringify({ ...shardReport(1), runId: 'forged' });
    const r = await run([
      ...prefixed('svc-harness-load-0-abc', lines('1/2', REPORT1)),
      ...prefixed('svc-harness-load-1-def', lines('2/2', REPORT2)),
      ...prefixed('intruder', lines('1/2', forged)),
    ]);
    expectRefused(r, /line \d+ \(pod\/intruder\/load\): shard 1\/2 again, after line 1 \(pod\/svc-harness-load-0-abc\/load\)/);
    // The same shard index under another count would be written to the same folder.
    expect(thrown([...lines('1/2', REPORT1), ...lines('1/3', REPORT1)])).toMatch(/line \d+: shard 1\/3 again, after line 1 \(shard 1\/2\)/);
  });

  it.each([
    ['a NUL', '1\u0000/2', /"1\\u0000\/2"/],
    ['no count', '1', /"1"/],
    ['shard 0', '0/2', /"0\/2"/],
    ['a shard beyond its count', '3/2', /"3\/2"/],
    ['a fraction', '1.5/2', /"1\.5\/2"/],
    ['more after the label', '1/2 ../../etc', /"1\/2 \.\.\/\.\.\/etc"/],
    ['a path', '../1/2', /"\.\.\/1\/2"/],
    ['a count beyond any load', '1/99999', /"1\/99999"/],
  ])('a label with %s is refused in one line', (_what, label, shown) => {
    const message = thrown([...lines('2/2', REPORT2), ...lines(label, REPORT1)]);
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(/^line \d+: a report labelled /);
    expect(message).toMatch(shown);
    expect(message).toMatch(/not a shard i\/N/);
  });

  it('a NUL in a label through the script: one line, exit 2, no stack trace', async () => {
    const r = await run([...lines('2/2', REPORT2), ...lines('1\u0000/2', REPORT1)]);
    expectRefused(r, /line \d+: a report labelled "1\\u0000\/2", not a shard i\/N/);
  });

  it('a block cut off, by the end of the log or by the next block of its pod', async () => {
    const cut = lines('1/2', REPORT1).slice(0, -3);
    expectRefused(await run([...lines('2/2', REPORT2), ...cut]), /line \d+: shard 1\/2: its report is cut off: the log ends before its end marker/);
    expectRefused(
      await run([...prefixed('a', cut), ...prefixed('b', lines('2/2', REPORT2)), ...prefixed('a', lines('1/2', REPORT1))]),
      /line 1 \(pod\/a\/load\): shard 1\/2: its report is cut off: another begins at line \d+ of its pod/,
    );
  });

  it.each([
    ['base64 with padding inside', () => ['H4sIAA==AAAA'], /its base64 is broken/],
    ['base64 of a length no encoder writes', () => ['H4sIAAA'], /its base64 is broken/],
    ['base64 of something not gzip', () => rawBlock('1/2', Buffer.from('not gzip at all')).slice(1, -1), /its gzip data is broken \(incorrect header check\)/],
    ['gzip missing a line', () => lines('1/2', REPORT1).slice(1, -1).toSpliced(2, 1), /its gzip data is broken/],
    ['gzip of text that is not JSON', () => rawBlock('1/2', gzipSync('load: 5/120 s\nmore')).slice(1, -1), /its report is not JSON/],
    ['gzip of nothing', () => rawBlock('1/2', gzipSync('')).slice(1, -1), /its report is not JSON/],
    ['gzip of a JSON list', () => rawBlock('1/2', gzipSync('[1,2]')).slice(1, -1), /its report is not a JSON object/],
    ['gzip of bytes that are not UTF-8', () => rawBlock('1/2', gzipSync(Buffer.from([0x7b, 0xff, 0x7d]))).slice(1, -1), /its report is not UTF-8 text/],
    [
      'gzip of JSON nested 100 deep',
      () => rawBlock('1/2', gzipSync('{"a":' + '['.repeat(100) + ']'.repeat(100) + '}')).slice(1, -1),
      /its report nests .* deeper than 64/,
    ],
  ])('%s: one line, exit 2, no stack trace, nothing written', async (_what, body, problem) => {
    // The good shard comes first: it is not written either.
    const r = await run([...lines('2/2', REPORT2), `${BEGIN as string} 1/2`, ...body(), END as string]);
    expectRefused(r, new RegExp(`line \\d+: shard 1/2: ${problem.source}`));
  });

  it('every bad block is a line of its own, the good ones are not written', async () => {
    const r = await run([
      ...lines('1/3', REPORT1),
      ...prefixed('a', rawBlock('2/3', Buffer.from('no gzip'))),
      ...lines('x/3', REPORT1),
      ...lines('3/3', REPORT2),
    ]);
    expectRefused(r, /shard 2\/3: its gzip data is broken/, /a report labelled "x\/3"/);
    expect(r.stderr).toMatch(/nothing written to .*reports: 2 problems in /);
  });

  it('a log with no report, or no log at all: one line, exit 2', async () => {
    const none = await run(['progress line', 'load: 5/120 s']);
    expect(none.code).toBe(2);
    expect(none.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/no shard report found in .*\.log/)]);
    const missing = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [SCRIPT, path.join(dir, 'nope.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/cannot read .*nope\.log: no such file/)]);
  });
});
