import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCompareCommand } from '../../src/cli/commands/report-compare.js';
import { reportTrendCommand } from '../../src/cli/commands/report-trend.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { renderJson } from '../../src/report/render-json.js';
import { runCli } from '../helpers/run-cli.js';
import { sampleLoadResult } from '../load/_load-result.js';
import { sampleRun } from '../report/fixtures/sample-run.js';
import { tempDir } from './_files.js';
import { inProcess, type InProcessExit } from './_reports.js';

/*
 * Issue 33, "done when": reports malformed by a generator (any field of a
 * report the harness writes dropped, made null, given another type, or
 * written twice) through `report compare` and `report trend`. Each ends in
 * exit 0, 1 or 2, never 70 (a bug) and never a hang. The 500 run in process,
 * through the mapping of outcomes and errors to exit codes that `main` uses;
 * a sample runs through the CLI itself. Time and memory bounds are measured in
 * bench/hostile/release-tools.bench.ts.
 */

const dir = tempDir('svc-hostile-generated-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUITE = JSON.parse(renderJson(sampleRun())) as unknown;
const LOAD = JSON.parse(
  renderJson(
    toRunResult(sampleLoadResult(40), {
      command: 'svc-harness load',
      profile: { name: 'mock', base_url: 'http://127.0.0.1:1' },
      embedded: true,
      startedIso: '2026-11-21T19:45:01.000Z',
      durationMs: 10_000,
      runId: '20261121-194501-aa01',
    }),
  ),
) as unknown;
const goodSuite = path.join(dir, 'good-suite.json');
const goodLoad = path.join(dir, 'good-load.json');
writeFileSync(goodSuite, JSON.stringify(SUITE));
writeFileSync(goodLoad, JSON.stringify(LOAD));

type Path = Array<string | number>;

/** Every path of a document down to `maxDepth`, arrays sampled at their first and last items (a report holds long lists of alike items). */
function pathsOf(doc: unknown, maxDepth = 7): Path[] {
  const out: Path[] = [];
  const visit = (v: unknown, at: Path): void => {
    if (at.length > 0) out.push(at);
    if (at.length >= maxDepth || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      const picks = v.length <= 2 ? v.map((_, i) => i) : [0, v.length - 1];
      for (const i of picks) visit(v[i], [...at, i]);
    } else for (const [k, c] of Object.entries(v)) visit(c, [...at, k]);
  };
  visit(doc, []);
  return out;
}

const SUITE_PATHS = pathsOf(SUITE);
const LOAD_PATHS = pathsOf(LOAD);

/** What a field becomes: dropped, null, another type, or written twice (the second copy of another type, or an item repeated). */
type Change = { kind: 'drop' } | { kind: 'null' } | { kind: 'retype'; to: unknown } | { kind: 'duplicate'; to: unknown };

const otherValue = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(0, -1, 1e308, 3.5, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant([null]),
  fc.constant(JSON.parse('{"__proto__": {"polluted": 1}}') as unknown),
);
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.constant<Change>({ kind: 'drop' }),
  fc.constant<Change>({ kind: 'null' }),
  otherValue.map((to): Change => ({ kind: 'retype', to })),
  otherValue.map((to): Change => ({ kind: 'duplicate', to })),
);

/** Marks a key to be written twice by {@link serialise}: the first copy `to`, the second the original. */
const TWICE = Symbol('twice');

function applyChange(doc: unknown, at: Path, c: Change): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const key = at[at.length - 1]!;
  if (c.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (c.kind === 'null') parent[key] = null;
  else if (c.kind === 'retype') parent[key] = c.to;
  else if (Array.isArray(parent)) parent.splice(Number(key), 0, structuredClone(parent[key]));
  else (parent as Record<string | symbol, unknown>)[TWICE] = { key, to: c.to };
  return copy;
}

/** JSON text of a document, writing a key marked by {@link TWICE} twice. */
function serialise(v: unknown): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(serialise).join(',')}]`;
  const twice = (v as Record<symbol, { key: string; to: unknown } | undefined>)[TWICE];
  const members = Object.entries(v).map(([k, c]) => `${JSON.stringify(k)}:${serialise(c)}`);
  if (twice) members.unshift(`${JSON.stringify(twice.key)}:${serialise(twice.to)}`);
  return `{${members.join(',')}}`;
}

const malformed = fc
  .constantFrom<'suite' | 'load'>('suite', 'load')
  .chain((kind) => {
    const paths = kind === 'suite' ? SUITE_PATHS : LOAD_PATHS;
    return fc.record({
      kind: fc.constant(kind),
      changes: fc.array(fc.tuple(fc.nat(paths.length - 1), change), { minLength: 1, maxLength: 3 }),
    });
  })
  .map(({ kind, changes }) => {
    let doc: unknown = kind === 'suite' ? SUITE : LOAD;
    const paths = kind === 'suite' ? SUITE_PATHS : LOAD_PATHS;
    const said: string[] = [];
    for (const [i, c] of changes) {
      const at = paths[i]!;
      try {
        doc = applyChange(doc, at, c);
        said.push(`${c.kind} ${at.join('.')}`);
      } catch {
        // An earlier change removed the path's parent: this one changes nothing.
      }
    }
    return { kind, text: serialise(doc), said: said.join('; ') };
  });

/** A command in process, failed if it has not ended within `ms`. */
async function within(ms: number, run: () => Promise<InProcessExit>): Promise<InProcessExit> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no end within ${ms} ms`)), ms)));
  try {
    return await Promise.race([run(), hang]);
  } finally {
    clearTimeout(timer);
  }
}

let n = 0;
describe('report compare and report trend on generated malformed reports', () => {
  it('500 inputs: exit 0, 1 or 2, never 70, never a hang', async () => {
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(malformed, async ({ kind, text, said }) => {
        n += 1;
        const run = path.join(dir, `gen-${n}`, '20261121-194501-ab12');
        mkdirSync(run, { recursive: true });
        const file = path.join(run, 'report.json');
        writeFileSync(file, text);
        const good = kind === 'suite' ? goodSuite : goodLoad;
        for (const r of [
          await within(20_000, () => inProcess(() => reportCompareCommand({ base: good, new: file, out: path.join(dir, 'out-compare'), json: true }))),
          await within(20_000, () => inProcess(() => reportTrendCommand({ dirs: [path.dirname(run)], out: path.join(dir, 'out-trend'), json: true }))),
        ]) {
          codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
          expect([0, 1, 2], `${said}: ${r.stderr}`).toContain(r.code);
          if (r.code === 2) expect(r.stderr.split('\n'), said).toHaveLength(1);
        }
      }),
      { numRuns: 500 },
    );
    // The generator reaches refusals and acceptances alike.
    expect(codes.get(2) ?? 0).toBeGreaterThan(50);
    expect((codes.get(0) ?? 0) + (codes.get(1) ?? 0)).toBeGreaterThan(50);
  }, 600_000);

  it('a sample through the CLI itself: the same exits', async () => {
    const samples = fc.sample(malformed, { numRuns: 3, seed: 33 });
    for (const [i, { kind, text, said }] of samples.entries()) {
      const file = path.join(dir, `cli-${i}.json`);
      writeFileSync(file, text);
      const good = kind === 'suite' ? goodSuite : goodLoad;
      for (const args of [
        ['report', 'compare', good, file, '-o', path.join(dir, 'cli-compare')],
        ['report', 'trend', file, '-o', path.join(dir, 'cli-trend')],
      ]) {
        const r = await runCli(args);
        expect([0, 1, 2], `${said}: ${r.stderr}`).toContain(r.code);
        if (r.code === 2) expect(r.stderr.trim().split('\n'), said).toHaveLength(1);
      }
    }
  }, 120_000);
});
