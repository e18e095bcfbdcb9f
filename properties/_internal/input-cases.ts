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
}

/**
 * Plans the generated inputs of a document's operations. `schemaOf`
 * narrows a parameter's schema (the agency's open products for an enum of
 * products).
 */
export function planInputs(doc: OpenApiDocument, schemaOf: (p: RequestParameter) => unknown): InputPlan {
  const operations = requestOperations(doc);
  const unusable: string[] = [];
  const keywords = new Map<string, string[]>();
  const cases: Array<fc.Arbitrary<InputCase | null>> = [];
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
    if (!REPLACING.has(op.method))
      cases.push(
        fc.option(
          inputs.valid.map((request): InputCase => ({ kind: 'valid', op, request })),
          KEEP,
        ),
      );
    for (const group of inputs.invalid)
      cases.push(
        fc.option(
          group.arbitrary.map((request): InputCase => ({ kind: 'invalid', op, request })),
          KEEP,
        ),
      );
    keywords.set(op.name, [...new Set(inputs.invalid.map((g) => (g.part === 'body' ? g.keyword : `${g.part} ${g.keyword}`)))]);
  }
  for (const [path, methods] of documentedMethods(usable)) {
    const missing = PROBED_METHODS.filter((m) => !methods.includes(m));
    const values = pathValues.get(path);
    if (!missing.length || !values) continue;
    cases.push(
      fc.option(
        fc.tuple(fc.constantFrom(...missing), values).map(([method, r]): InputCase => ({ kind: 'method', path, method, values: r.path })),
        KEEP,
      ),
    );
  }
  return { operations: usable, run: fc.tuple(...cases), unusable, keywords };
}

/** A case in a few words: `POST /{product}/bookings /v1… body {…} (broken: body type at /quote_token)`. */
export function renderCase(c: InputCase, path: string, query: string | undefined): string {
  if (c.kind === 'method') return `${c.method} ${path} (a method ${c.path} does not document)`;
  const r = c.request;
  const body = r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`;
  const broken = r.broken ? ` (broken: ${r.broken.part} ${r.broken.keyword} at ${r.broken.pointer || '/'})` : ' (valid)';
  return `${c.op.method} ${path}${query ? `?${query}` : ''}${body}${broken}`;
}
