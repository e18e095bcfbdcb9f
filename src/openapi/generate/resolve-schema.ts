import { UnusableSchemaError } from '../unusable-schema.js';

/** A JSON Schema object. */
export type Schema = Record<string, unknown>;

/** Follows a `$ref` to the schema it names; undefined when it leads nowhere. */
export type SchemaResolver = (ref: string) => unknown;

/** Longest chain of `$ref`s and `allOf`s merged into one schema. */
const MAX_HOPS = 32;

const isNode = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One schema standing for `schema` with its `$ref` followed (its sibling
 * keywords kept, as 2020-12 reads them) and its `allOf` merged in: the
 * properties of every part, the union of their `required`, and for any
 * other keyword the last part's. A `$ref` that leads nowhere, or a chain
 * that comes back on itself, is an {@link UnusableSchemaError}.
 */
export function mergeSchemas(schema: Schema, resolve: SchemaResolver, hops = 0): Schema {
  if (hops > MAX_HOPS) throw new UnusableSchemaError(`$ref and allOf chain runs past ${MAX_HOPS} hops (a cycle?)`);
  let out: Schema = { ...schema };
  if (typeof out.$ref === 'string') {
    const ref = out.$ref;
    const target = resolve(ref);
    if (!isNode(target)) throw new UnusableSchemaError(`$ref ${JSON.stringify(ref)} leads nowhere in the document`);
    delete out.$ref;
    out = merge(mergeSchemas(target, resolve, hops + 1), out);
  }
  if (Array.isArray(out.allOf)) {
    const parts = out.allOf;
    delete out.allOf;
    for (const part of parts) if (isNode(part)) out = merge(out, mergeSchemas(part, resolve, hops + 1));
  }
  return out;
}

function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isNode(a.properties) && isNode(b.properties)) {
    const props: Schema = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties)) props[k] = isNode(props[k]) && isNode(v) ? { allOf: [props[k], v] } : v;
    out.properties = props;
  }
  if (Array.isArray(a.required) && Array.isArray(b.required)) out.required = [...new Set([...a.required, ...b.required])];
  return out;
}
