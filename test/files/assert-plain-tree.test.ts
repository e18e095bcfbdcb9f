import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertPlainTree } from '../../src/files/json-fields.js';

/** The walk assertPlainTree made before its first pass without paths: every value with its path, the first problem named. */
function refusal(doc: unknown, forbidden: ReadonlySet<string>, maxDepth: number): string | undefined {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: doc, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return `${path || 'the document'} is nested deeper than ${maxDepth} levels`;
    for (const key of Object.keys(v)) {
      if (forbidden.has(key)) return `it holds a key ${JSON.stringify(key)}${path ? ` at ${path}` : ''}`;
      stack.push({ v: (v as Record<string, unknown>)[key], path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return undefined;
}

const keys = fc.constantFrom('a', 'b', 'constructor', '0', 'PROTO');
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.constant(null),
    fc.string({ maxLength: 3 }),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(keys, tie('node'), { maxKeys: 3 }),
  ),
})).node;

describe('assertPlainTree', () => {
  it('refuses a JSON document exactly where a walk naming every path does, with the same message', () => {
    const forbidden = new Set(['__proto__', 'constructor']);
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 5 }), (t, maxDepth) => {
        // JSON.parse keeps `__proto__` as an own key, as a hostile file would have it.
        const doc: unknown = JSON.parse(JSON.stringify(t).replace(/"PROTO":/g, '"__proto__":'));
        let message: string | undefined;
        try {
          assertPlainTree(doc, forbidden, maxDepth);
        } catch (err) {
          message = (err as Error).message;
        }
        expect(message).toBe(refusal(doc, forbidden, maxDepth));
      }),
      { numRuns: 1000 },
    );
  });
});
