import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { linearRegExp } from './linear-regexp.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * An Ajv for OpenAPI 3.1 schemas: JSON Schema draft 2020-12 with formats.
 * Not strict: a document carries OpenAPI keywords (`example`, `xml`,
 * `discriminator`, …) that are no JSON Schema vocabulary, and a service's own
 * document must not be refused for them. Patterns run on a linear-time
 * engine: a document's pattern must not be able to hang the run.
 */
export function openApiAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, inlineRefs: false, code: { regExp: linearRegExp } });
  addFormats(ajv);
  return ajv;
}
