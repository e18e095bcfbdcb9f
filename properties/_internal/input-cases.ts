import * as fc from 'fast-check';
import {
  documentedMethods,
  operationInputs,
  requestOperations,
  type GeneratedRequest,
  type RequestOperation,
  type RequestParameter,
} from '../../src/openapi/generate/operation-inputs.js';
import type { OpenApiDocument } from '../../src/openapi/load-document.js';

/** Methods tried on each path for the ones it does not document. */
const PROBED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Methods whose valid inputs are not sent: they replace or remove what the agency has set (its webhook endpoint), under the checks that use it. */
const REPLACING = new Set(['PUT', 'PATCH', 'DELETE']);
/** Generated almost always, yet a shrink tries without it first: a shrunk run keeps only the cases that fail. */
const KEEP = { freq: 1_000_000 } as const;

/** One request of a run: an operation's input, valid or broken, or a method its path does not document. */
export type InputCase =
  | { kind: 'valid' | 'invalid'; op: RequestOperation; request: GeneratedRequest }
  | { kind: 'method'; path: string; method: string; values: Record<string, unknown> };

/** The inputs of a document: the arbitrary of one run, and the operations it draws from. */
interface InputPlan {
  operations: RequestOperation[];
  /** One run: one valid input per operation (none where it would replace a setting), one per broken keyword group, one undocumented method per path; a shrink drops any of them. */
  run: fc.Arbitrary<Array<InputCase | null>>;
  /** Operations the document describes that cannot be generated, and why. */
  unusable: string[];
  /** Per operation, the (part, keyword) groups one run breaks. */
  keywords: Map<string, string[]>;
  /** Cases left out of each run, for want of room in the write bucket. */
  left: number;
}

/**
 * Plans the generated inputs of a document's operations. `schemaOf`
 * narrows a parameter's schema (the agency's open products for an enum of
 * products).
 */
export function planInputs(
  doc: OpenApiDocument,
  schemaOf: (p: RequestParameter) => unknown,
  writes?: { isWrite: (method: string, path: string) => boolean; max: number },
): InputPlan {
  const operations = requestOperations(doc);
  const unusable: string[] = [];
  const keywords = new Map<string, string[]>();
  /** Each case with its rank when writes are few: invalid bodies first, then the other writes, then the methods probed. */
  const cases: Array<{ arb: fc.Arbitrary<InputCase | null>; write: boolean; rank: number }> = [];
  const isWrite = (method: string, path: string): boolean => writes?.isWrite(method, path) ?? false;
  const pathValues = new Map<string, fc.Arbitrary<GeneratedRequest>>();
  const usable: RequestOperation[] = [];
  for (const op of operations) {
    let inputs: ReturnType<typeof operationInputs>;
    try {
      inputs = operationInputs(doc, op, schemaOf);
    } catch (err) {
      unusable.push(`${op.name}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    usable.push(op);
    if (!pathValues.has(op.path)) pathValues.set(op.path, inputs.valid);
    const write = isWrite(op.method, op.path);
    if (!REPLACING.has(op.method))
      cases.push({
        arb: fc.option(
          inputs.valid.map((request): InputCase => ({ kind: 'valid', op, request })),
          KEEP,
        ),
        write,
        rank: 1,
      });
    for (const group of inputs.invalid) {
      const arb = fc.option(
        group.arbitrary.map((request): InputCase => ({ kind: 'invalid', op, request })),
        KEEP,
      );
      cases.push({ arb, write, rank: group.part === 'body' ? 0 : 1 });
    }
    keywords.set(op.name, [...new Set(inputs.invalid.map((g) => (g.part === 'body' ? g.keyword : `${g.part} ${g.keyword}`)))]);
  }
  for (const [path, methods] of documentedMethods(usable)) {
    const missing = PROBED_METHODS.filter((m) => !methods.includes(m));
    const values = pathValues.get(path);
    if (!missing.length || !values) continue;
    const arb = fc.option(
      fc.tuple(fc.constantFrom(...missing), values).map(([method, r]): InputCase => ({ kind: 'method', path, method, values: r.path })),
      KEEP,
    );
    cases.push({ arb, write: missing.some((m) => isWrite(m, path)), rank: 2 });
  }
  // With few writes free, the writes that judge the most go: the others are left out of the run.
  const ranked = cases.map((c, i) => ({ ...c, i })).sort((x, y) => x.rank - y.rank || x.i - y.i);
  let room = writes?.max ?? Infinity;
  const kept = new Set(ranked.filter((c) => !c.write || room-- > 0).map((c) => c.i));
  const chosen = cases.filter((_, i) => kept.has(i));
  return { operations: usable, run: fc.tuple(...chosen.map((c) => c.arb)), unusable, keywords, left: cases.length - chosen.length };
}

/** A case in a few words: `POST /{product}/bookings /v1… body {…} (broken: body type at /quote_token)`. */
export function renderCase(c: InputCase, path: string, query: string | undefined): string {
  if (c.kind === 'method') return `${c.method} ${path} (a method ${c.path} does not document)`;
  const r = c.request;
  const body = r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`;
  const broken = r.broken ? ` (broken: ${r.broken.part} ${r.broken.keyword} at ${r.broken.pointer || '/'})` : ' (valid)';
  return `${c.op.method} ${path}${query ? `?${query}` : ''}${body}${broken}`;
}
