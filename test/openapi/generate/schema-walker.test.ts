import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { walkSchema, type Mutation } from '../../../src/openapi/generate/schema-walker.js';
import { resolvePointer } from '../../../src/openapi/json-pointer.js';
import { bundledOpenApiDocument } from '../../../src/openapi/load-document.js';
import { UnusableSchemaError } from '../../../src/openapi/unusable-schema.js';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (ajv: Ajv2020) => Ajv2020;

const doc = bundledOpenApiDocument();
const resolve = (ref: string): unknown => resolvePointer(doc, ref)?.value;

/** Every error of a value, as `keyword pointer` (the property's place for required and additionalProperties). */
const ajvs = new Map<object, Ajv2020>();
const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
function errorsOf(schema: unknown, root: object, value: unknown): string[] {
  let ajv = ajvs.get(root);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(root, 'urn:test:root');
    ajvs.set(root, ajv);
  }
  const ref = typeof schema === 'object' && schema !== null && '$ref' in schema ? String((schema as { $ref: string }).$ref) : undefined;
  const key = JSON.stringify(schema);
  const validate =
    compiled.get(key) ??
    ajv.compile(ref !== undefined ? { $ref: `urn:test:root${ref}` } : { ...(schema as object), $defs: (root as { $defs?: unknown }).$defs });
  compiled.set(key, validate);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => {
    const p = e.params as { missingProperty?: string; additionalProperty?: string };
    const extra = e.keyword === 'required' ? `/${p.missingProperty}` : e.keyword === 'additionalProperties' ? `/${p.additionalProperty}` : '';
    return `${e.keyword} ${e.instancePath}${extra}`;
  });
}

/** The request schemas of the bundled document: bodies and path / query parameters, as `$ref`s into it. */
function requestSchemas(): Array<{ name: string; schema: unknown }> {
  const out: Array<{ name: string; schema: unknown }> = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(
      item as Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> }; parameters?: unknown[] }>,
    )) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body)
        out.push({
          name: `${method} ${path} body`,
          schema: { $ref: `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/application~1json/schema` },
        });
      (op.parameters ?? []).forEach((raw, i) => {
        const param = (typeof (raw as { $ref?: string }).$ref === 'string' ? resolve((raw as { $ref: string }).$ref) : raw) as {
          in: string;
          name: string;
          schema: unknown;
        };
        if (param.in === 'path' || param.in === 'query') out.push({ name: `${method} ${path} ${param.in} ${param.name} (#${i})`, schema: param.schema });
      });
    }
  }
  return out;
}

const schemas = requestSchemas();

describe('walkSchema over the request schemas of the bundled document', () => {
  test('finds the bodies and parameters it should', () => {
    expect(schemas.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'post /flights/search body',
        'post /{product}/bookings body',
        'put /webhook-endpoint body',
        'get /wallet/statement query limit (#2)',
      ]),
    );
  });

  test.each(schemas)('valid values of $name pass Ajv', ({ schema }) => {
    const walked = walkSchema(schema, { resolve });
    for (const value of fc.sample(walked.valid, { numRuns: 60, seed: 42 })) expect(errorsOf(schema, doc, value), JSON.stringify(value)).toEqual([]);
  });

  test.each(schemas)('each invalid value of $name fails Ajv on the named keyword at the named place', ({ schema }) => {
    const walked = walkSchema(schema, { resolve });
    for (const m of walked.mutations) {
      for (const value of fc.sample(m.arbitrary, { numRuns: 15, seed: 7 })) {
        const errors = errorsOf(schema, doc, value);
        const named = `${m.keyword} ${m.pointer}`;
        expect(errors, `${named}: ${JSON.stringify(value)}`).toContain(named);
        // Nothing else is broken, elsewhere: every error is at the named place (a wrong type may also miss an enum there).
        for (const e of errors) expect(e.split(' ')[1], `${named}: ${JSON.stringify(value)} → ${errors.join(', ')}`).toBe(m.pointer);
      }
    }
  });

  test('breaks the keywords the document constrains, and only those', () => {
    const byName = new Map(schemas.map((s) => [s.name, walkSchema(s.schema, { resolve }).mutations.map((m) => `${m.keyword} ${m.pointer}`)]));
    expect(byName.get('post /flights/search body')).toEqual(
      expect.arrayContaining([
        'type ',
        'required /criteria',
        'required /criteria/origin',
        'pattern /criteria/origin',
        'format /criteria/departure_date',
        'minimum /criteria/adults',
        'maximum /criteria/adults',
        'type /criteria/adults',
      ]),
    );
    expect(byName.get('post /{product}/bookings body')).toEqual(
      expect.arrayContaining([
        'minItems /travellers',
        'maxItems /travellers',
        'maxLength /travellers/0/first_name',
        'pattern /travellers/0/last_name',
        'maxLength /client_reference',
      ]),
    );
    expect(byName.get('put /webhook-endpoint body')).toEqual(expect.arrayContaining(['format /url', 'maxLength /url', 'required /url']));
    expect(byName.get('post /{product}/bookings path product (#2)')).toEqual(['type ', 'enum ']);
    // The criteria leave additionalProperties open (unknown fields are ignored): no unknown field is generated as invalid.
    const all = [...byName.values()].flat();
    expect(all.filter((m) => m.startsWith('additionalProperties'))).toEqual([]);
  });
});

describe('walkSchema keywords', () => {
  const schema = {
    $defs: { Code: { type: 'string', pattern: '^[a-z]{2}$' } },
    type: 'object',
    additionalProperties: false,
    required: ['n', 'kind', 'tags'],
    properties: {
      n: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
      kind: { enum: [1, 2, 3] },
      code: { $ref: '#/$defs/Code', maxLength: 2 },
      tags: { type: 'array', uniqueItems: true, minItems: 1, maxItems: 3, items: { allOf: [{ type: 'string' }, { minLength: 2 }] } },
      at: { type: 'string', format: 'date-time' },
    },
  };
  const local = (ref: string): unknown => resolvePointer(schema, ref)?.value;
  const walked = walkSchema(schema, { resolve: local });

  test('names each broken keyword and place (maxLength of code cannot break alone: its pattern fixes the length)', () => {
    expect(walked.mutations.map((m) => `${m.keyword} ${m.pointer}`).sort()).toEqual(
      [
        'type ',
        'required /n',
        'required /kind',
        'required /tags',
        'additionalProperties /unexpected',
        'type /n',
        'exclusiveMinimum /n',
        'exclusiveMaximum /n',
        'enum /kind',
        'type /code',
        'pattern /code',
        'type /tags',
        'minItems /tags',
        'maxItems /tags',
        'type /tags/0',
        'minLength /tags/0',
        'type /at',
        'format /at',
      ].sort(),
    );
  });

  test('valid values pass and invalid ones fail where they say', () => {
    for (const v of fc.sample(walked.valid, { numRuns: 100, seed: 1 })) expect(errorsOf(schema, schema, v), JSON.stringify(v)).toEqual([]);
    for (const m of walked.mutations) {
      for (const v of fc.sample(m.arbitrary, { numRuns: 10, seed: 3 }))
        expect(errorsOf(schema, schema, v), `${m.keyword} ${m.pointer}`).toContain(`${m.keyword} ${m.pointer}`);
    }
  });

  test('a failure shrinks to a minimal value', () => {
    const booking = walkSchema({ $ref: '#/components/schemas/BookingRequest' }, { resolve });
    const missing = booking.mutations.find((m: Mutation) => m.keyword === 'required' && m.pointer === '/quote_token')!;
    const out = fc.check(
      fc.property(missing.arbitrary, () => false),
      { seed: 5 },
    );
    expect(out.failed).toBe(true);
    const [shrunk] = out.counterexample as [{ travellers: Array<{ first_name: string }> }];
    expect(Object.keys(shrunk)).toEqual(['travellers']);
    expect(shrunk.travellers).toHaveLength(1);
    const tooHigh = walkSchema({ type: 'integer', maximum: 9 }, { resolve }).mutations.find((m) => m.keyword === 'maximum')!;
    expect(
      fc.check(
        fc.property(tooHigh.arbitrary, () => false),
        { seed: 5 },
      ).counterexample,
    ).toEqual([10]);
  });

  test('a $ref that leads nowhere is an UnusableSchemaError naming it', () => {
    expect(() => walkSchema({ $ref: '#/nowhere' }, { resolve })).toThrow(UnusableSchemaError);
    expect(() => walkSchema({ $ref: '#/nowhere' }, { resolve })).toThrow(/#\/nowhere/);
  });
});
