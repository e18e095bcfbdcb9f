import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One import of a source file: the file it resolves to and whether it is loaded lazily (`import('…')`). */
export interface ImportEdge {
  to: string;
  lazy: boolean;
}

/** Source files (relative to the root, `/`-separated) and what each imports inside the tree. */
export type ImportGraph = Map<string, ImportEdge[]>;

// Static `import … from '…'`, side-effect `import '…'`, `export … from '…'`, and lazy `import('…')`.
const STATIC = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
const LAZY = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Maps a specifier written in `from` (a relative `.js` path) onto the `.ts` file it names, or undefined outside the tree. */
function resolve(fromFile: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Reads every `.ts` file under the `folders` of `root` (all of it when none are named) and the imports between them;
 * specifiers leaving those folders are dropped. Paths are relative to `root`.
 */
export function importGraph(root: string, folders: readonly string[] = ['.']): ImportGraph {
  const files = new Set(folders.flatMap((f) => walk(path.join(root, f))).map((f) => path.resolve(f)));
  const graph: ImportGraph = new Map();
  const rel = (f: string): string => path.relative(root, f).split(path.sep).join('/');
  for (const file of files) {
    // Comments may quote import statements; strip them before matching.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const edges: ImportEdge[] = [];
    for (const m of text.matchAll(STATIC)) {
      const to = resolve(file, (m[1] ?? m[2])!, files);
      if (to) edges.push({ to: rel(to), lazy: false });
    }
    for (const m of text.matchAll(LAZY)) {
      const to = resolve(file, m[1]!, files);
      if (to) edges.push({ to: rel(to), lazy: true });
    }
    graph.set(rel(file), edges);
  }
  return graph;
}

/** Every elementary cycle found by a depth-first walk, each as its files in import order (one per strongly connected part is enough to fail on). */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const { to } of graph.get(file) ?? []) {
      const s = state.get(to);
      if (s === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (s === undefined) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The area of a file: its first folder under `src/` (`src/checks/auth/x.ts` → `checks`), `harness` for a file
 * at the top of `src/` (the library's entry), or its first folder for a file outside `src/` (`properties/x.ts` → `properties`).
 */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length > 2 ? parts[1]! : 'harness';
}

/** The `_internal` folder a file sits in, as the path up to and including `_internal`, or undefined. */
export function internalFolderOf(file: string): string | undefined {
  const i = file.split('/').indexOf('_internal');
  return i < 0
    ? undefined
    : file
        .split('/')
        .slice(0, i + 1)
        .join('/');
}

/** What an area's `index.ts` re-exports of one of its files: everything, every type, or some names. */
interface ReExport {
  all: boolean;
  allTypes: boolean;
  names: Set<string>;
}

/** For each file that `index` re-exports (root-relative), what it re-exports of it. */
function reExportsOf(root: string, index: string): Map<string, ReExport> {
  const text = readFileSync(path.join(root, index), 'utf8');
  const out = new Map<string, ReExport>();
  const of = (spec: string): ReExport => {
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(index), spec.replace(/\.js$/, '.ts')));
    if (!out.has(file)) out.set(file, { all: false, allTypes: false, names: new Set() });
    return out.get(file)!;
  };
  for (const m of text.matchAll(/export\s+(type\s+)?\*\s+from\s+'([^']+)'/g)) of(m[2]!)[m[1] ? 'allTypes' : 'all'] = true;
  for (const m of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    for (const n of m[2]!.split(',')) {
      const name = n
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) of(m[3]!).names.add(name);
    }
  }
  return out;
}

/**
 * `from -> to` for every named import (`import { … } from`) of a file of another area whose `index.ts`
 * re-exports all that the import takes: such an import goes through the index.
 */
export function indexBypasses(root: string, graph: ImportGraph, indexOf: (area: string) => string): string[] {
  const indexes = new Map<string, Map<string, ReExport>>();
  const reExports = (area: string): Map<string, ReExport> | undefined => {
    const index = indexOf(area);
    if (!indexes.has(index)) indexes.set(index, statSafe(path.join(root, index)) ? reExportsOf(root, index) : new Map());
    return indexes.get(index);
  };
  const out: string[] = [];
  for (const from of graph.keys()) {
    const text = readFileSync(path.join(root, from), 'utf8');
    for (const m of text.matchAll(/^\s*import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/gm)) {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), m[3]!.replace(/\.js$/, '.ts')));
      const area = areaOf(to);
      if (area === areaOf(from) || to === indexOf(area)) continue;
      const re = reExports(area)?.get(to);
      if (!re) continue;
      const names = m[2]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const covered = names.every((n) => {
        const name = n
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        return re.all || ((m[1] !== undefined || n.startsWith('type ')) && re.allTypes) || re.names.has(name);
      });
      if (covered) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

function statSafe(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
