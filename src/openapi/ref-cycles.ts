import { fragmentOf, resolvePointer } from './json-pointer.js';
import { UnusableSchemaError } from './unusable-schema.js';

/** Keywords whose subschema judges the very value its schema judges (not a part of it). */
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;
const SAME_VALUE_MANY = ['allOf', 'anyOf', 'oneOf'] as const;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schemas that judge the same value as the schema at `at`, with where each lives. */
function sameValueEdges(doc: unknown, at: string[], node: Node): Array<{ segments: string[]; viaRef?: string }> {
  const out: Array<{ segments: string[]; viaRef?: string }> = [];
  if (typeof node.$ref === 'string') {
    const target = resolvePointer(doc, node.$ref);
    if (!target) throw new UnusableSchemaError(`$ref ${JSON.stringify(node.$ref)} at ${fragmentOf(at)} leads nowhere in the document`);
    out.push({ segments: target.segments, viaRef: node.$ref });
  }
  for (const k of SAME_VALUE_ONE) if (isNode(node[k])) out.push({ segments: [...at, k] });
  for (const k of SAME_VALUE_MANY) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((_, i) => out.push({ segments: [...at, k, String(i)] }));
  }
  return out;
}

/** Keywords whose values are data, not schemas: a `$ref` key inside an example is no reference. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * Throws an {@link UnusableSchemaError} naming the cycle when a schema
 * reachable from the one at `segments` reaches itself through `$ref`,
 * `allOf`, `anyOf`, `oneOf`, `not` or `if`/`then`/`else` without stepping into
 * a part of the value: such a schema never judges anything (a validator
 * recurses until its stack overflows, a resolver gives up and judges
 * nothing). A recursion through `properties` or `items` is a tree schema and
 * is fine. A `$ref` that leads nowhere is named too. Each location is looked
 * at once, so the cost is linear in the part of the document reached;
 * `checked` keeps the locations found sound across calls on one document.
 */
export function assertNoRefCycle(doc: unknown, segments: readonly string[], checked: Set<string> = new Set()): void {
  const done = new Set<string>();
  const stack: string[] = [];
  const cycleFrom = (at: string[]): void => {
    const key = fragmentOf(at);
    const open = stack.indexOf(key);
    if (open >= 0) throw new UnusableSchemaError(`$ref cycle: ${[...stack.slice(open), key].join(' → ')}`);
    if (done.has(key)) return;
    const node = resolvePointer(doc, key)?.value;
    if (!isNode(node)) return;
    stack.push(key);
    for (const edge of sameValueEdges(doc, at, node)) cycleFrom(edge.segments);
    stack.pop();
    done.add(key);
  };
  // Every schema the one at `segments` can reach, by any keyword and through $refs, without recursion.
  const reached = new Set<string>();
  const queue: string[][] = [[...segments]];
  while (queue.length > 0) {
    const at = queue.pop()!;
    const key = fragmentOf(at);
    if (reached.has(key) || checked.has(key)) continue;
    reached.add(key);
    const node = resolvePointer(doc, key)?.value;
    if (typeof node !== 'object' || node === null) continue;
    if (isNode(node)) {
      cycleFrom(at);
      if (typeof node.$ref === 'string') queue.push(resolvePointer(doc, node.$ref)!.segments);
    }
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'object' && v !== null && !(isNode(node) && DATA_KEYS.has(k))) queue.push([...at, k]);
    }
  }
  for (const key of reached) checked.add(key);
}
