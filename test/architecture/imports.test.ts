import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, findCycles, importGraph, internalFolderOf, type ImportGraph } from './import-graph.js';

const SRC = path.resolve('src');

/** Known reaches into another area's `_internal/`, written `from -> to`: none, and none may come back. */
const INTERNAL_REACH_ALLOWED: readonly string[] = [];

/** `from -> to` for every import out of `src/cli/` from a file outside it. */
function upwardImports(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, edges]) => (from.startsWith('cli/') ? [] : edges.filter((e) => e.to.startsWith('cli/')).map((e) => `${from} -> ${e.to}`)));
}

/** `from -> to` for every import into an `_internal/` folder of another area (`a/_internal/**` is open to `a/**` only). */
function internalReaches(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, edges]) =>
    edges.filter((e) => internalFolderOf(e.to) !== undefined && areaOf(e.to) !== areaOf(from)).map((e) => `${from} -> ${e.to}`),
  );
}

describe('the import graph of src/', () => {
  const graph = importGraph(SRC);

  it('reads the tree and resolves its imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/main.ts')?.map((e) => e.to)).toContain('cli/parser.ts');
    expect(graph.get('cli/specs/run.ts')).toContainEqual({ to: 'cli/commands/run.ts', lazy: true });
  });

  it('has no file outside src/cli/ importing src/cli/', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it("has no import into another area's _internal/", () => {
    expect(internalReaches(graph).filter((r) => !INTERNAL_REACH_ALLOWED.includes(r))).toEqual([]);
  });
});

describe('the rules themselves', () => {
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges).map(([f, tos]) => [f, tos.map((to) => ({ to, lazy: false }))]));

  it('report a cycle with its files', () => {
    expect(findCycles(g({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': ['c/z.ts'], 'c/z.ts': ['a/x.ts'] }))).toEqual([['a/x.ts', 'b/y.ts', 'c/z.ts', 'a/x.ts']]);
    expect(findCycles(g({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': [] }))).toEqual([]);
  });

  it('report an upward import and a reach into another area’s _internal/', () => {
    expect(upwardImports(g({ 'load/x.ts': ['cli/commands/load.ts'], 'cli/main.ts': ['cli/parser.ts'] }))).toEqual(['load/x.ts -> cli/commands/load.ts']);
    expect(
      internalReaches(
        g({ 'load/x.ts': ['scenario/_internal/y.ts'], 'scenario/z.ts': ['scenario/_internal/y.ts'], 'scenario/a/b.ts': ['scenario/_internal/y.ts'] }),
      ),
    ).toEqual(['load/x.ts -> scenario/_internal/y.ts']);
  });
});
