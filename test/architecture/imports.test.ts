import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, findCycles, importGraph, indexBypasses, internalFolderOf, type ImportGraph } from './import-graph.js';

/**
 * The layers of the program, from the ground up (docs/layers.md says what each holds). A file may import
 * its own area and the areas of lower layers only: never another area of its own layer, never one above.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'log'],
  ['files'],
  ['protocol'],
  ['profile'],
  ['client'],
  ['results'],
  ['api', 'openapi'],
  ['clock'],
  ['mock', 'receiver'],
  ['checks'],
  ['scenario', 'properties'],
  ['runner'],
  ['load'],
  ['known', 'report', 'outputs'],
  ['certify', 'harness'],
  ['selftest'],
  ['cli'],
];

/** Known imports across the layers, written `from -> to`: none, and none may come back. */
const LAYER_EXCEPTIONS: readonly string[] = [];

/** Known reaches into another area's `_internal/`, written `from -> to`: none, and none may come back. */
const INTERNAL_REACH_ALLOWED: readonly string[] = [];

const layerOf = (layers: readonly (readonly string[])[], area: string): number => layers.findIndex((l) => l.includes(area));

/** Areas that no layer names. */
function unplacedAreas(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  return [...new Set([...graph.keys()].map(areaOf))].filter((a) => layerOf(layers, a) < 0).sort();
}

/** `from -> to` for every import into another area of the same layer or of a higher one. */
function crossLayerImports(graph: ImportGraph, layers: readonly (readonly string[])[]): string[] {
  return [...graph].flatMap(([from, edges]) =>
    edges.filter((e) => areaOf(e.to) !== areaOf(from) && layerOf(layers, areaOf(e.to)) >= layerOf(layers, areaOf(from))).map((e) => `${from} -> ${e.to}`),
  );
}

/** `a <-> b` for every two areas that import each other (whatever the layers say). */
function mutualAreas(graph: ImportGraph): string[] {
  const pairs = new Set<string>();
  for (const [from, edges] of graph) for (const e of edges) if (areaOf(e.to) !== areaOf(from)) pairs.add(`${areaOf(from)} -> ${areaOf(e.to)}`);
  return [...pairs]
    .map((p) => p.split(' -> ') as [string, string])
    .filter(([a, b]) => a < b && pairs.has(`${b} -> ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`)
    .sort();
}

/** `from -> to` for every import into an `_internal/` folder of another area (`a/_internal/**` is open to `a/**` only). */
function internalReaches(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, edges]) =>
    edges.filter((e) => internalFolderOf(e.to) !== undefined && areaOf(e.to) !== areaOf(from)).map((e) => `${from} -> ${e.to}`),
  );
}

/** The `index.ts` of an area, where it has one. */
const indexOf = (area: string): string => (area === 'properties' ? 'properties/index.ts' : `src/${area}/index.ts`);

describe('the import graph of src/ and properties/', () => {
  const graph = importGraph(path.resolve('.'), ['src', 'properties']);

  it('reads the tree and resolves its imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/cli/main.ts')?.map((e) => e.to)).toContain('src/cli/parser.ts');
    expect(graph.get('src/cli/specs/run.ts')).toContainEqual({ to: 'src/cli/commands/run.ts', lazy: true });
    expect(graph.get('properties/run-properties.ts')?.map((e) => e.to)).toContain('src/checks/suite-part.ts');
  });

  it('places every area on one layer', () => {
    expect(unplacedAreas(graph, LAYERS)).toEqual([]);
    expect(LAYERS.flat().length).toBe(new Set(LAYERS.flat()).size);
  });

  it('has no import into the same layer or up a layer', () => {
    expect(crossLayerImports(graph, LAYERS).filter((r) => !LAYER_EXCEPTIONS.includes(r))).toEqual([]);
  });

  it('has no two areas importing each other', () => {
    expect(mutualAreas(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('imports another area through its index.ts wherever the index re-exports what the import takes', () => {
    expect(indexBypasses(path.resolve('.'), graph, indexOf)).toEqual([]);
  });

  it("has no import into another area's _internal/", () => {
    expect(internalReaches(graph).filter((r) => !INTERNAL_REACH_ALLOWED.includes(r))).toEqual([]);
  });
});

describe('the rules themselves', () => {
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges).map(([f, tos]) => [f, tos.map((to) => ({ to, lazy: false }))]));
  const layers = [['errors'], ['load', 'report'], ['cli']];

  it('report a cycle with its files', () => {
    expect(findCycles(g({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': ['c/z.ts'], 'c/z.ts': ['a/x.ts'] }))).toEqual([['a/x.ts', 'b/y.ts', 'c/z.ts', 'a/x.ts']]);
    expect(findCycles(g({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': [] }))).toEqual([]);
  });

  it('report an import up a layer or across one, and nothing else', () => {
    const graph = g({
      'src/load/x.ts': ['src/cli/commands/load.ts', 'src/report/y.ts', 'src/errors/e.ts', 'src/load/z.ts'],
      'src/cli/main.ts': ['src/cli/parser.ts', 'src/load/x.ts'],
    });
    expect(crossLayerImports(graph, layers)).toEqual(['src/load/x.ts -> src/cli/commands/load.ts', 'src/load/x.ts -> src/report/y.ts']);
  });

  it('report two areas importing each other, and an area no layer names', () => {
    const graph = g({ 'src/load/x.ts': ['src/report/y.ts'], 'src/report/y.ts': ['src/load/z.ts'], 'properties/p.ts': ['src/errors/e.ts'] });
    expect(mutualAreas(graph)).toEqual(['load <-> report']);
    expect(unplacedAreas(graph, layers)).toEqual(['properties']);
  });

  it('read a file at the top of src/ as the harness, and a folder beside src/ as an area', () => {
    expect([areaOf('src/harness.ts'), areaOf('src/checks/auth/x.ts'), areaOf('properties/_internal/y.ts')]).toEqual(['harness', 'checks', 'properties']);
  });

  it('report a reach into another area’s _internal/', () => {
    expect(
      internalReaches(
        g({
          'src/load/x.ts': ['src/scenario/_internal/y.ts'],
          'src/scenario/z.ts': ['src/scenario/_internal/y.ts'],
          'src/scenario/a/b.ts': ['src/scenario/_internal/y.ts'],
        }),
      ),
    ).toEqual(['src/load/x.ts -> src/scenario/_internal/y.ts']);
  });

  it('report an import that could go through the index, and none that could not', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'import-guard-'));
    try {
      const files: Record<string, string> = {
        'src/a/index.ts': "export { x } from './x.js';\nexport type * from './t.js';\n",
        'src/a/x.ts': 'export const x = 1;\nexport const z = 2;\n',
        'src/a/t.ts': 'export interface T {\n  n: number;\n}\n',
        'src/a/y.ts': 'export const y = 1;\n',
        'src/b/u.ts': "import { x } from '../a/x.js';\nimport { z } from '../a/x.js';\nimport { y } from '../a/y.js';\nimport type { T } from '../a/t.js';\n",
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      }
      const graph = importGraph(root, ['src']);
      expect(indexBypasses(root, graph, (area) => `src/${area}/index.ts`)).toEqual(['src/b/u.ts -> src/a/x.ts', 'src/b/u.ts -> src/a/t.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
