import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { withoutExcerpt } from '../errors/parser-message.js';
import { nestsDeeperThan } from '../files/nesting-depth.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { bundledOpenApiPath } from './bundled-document.js';
import { fetchBounded } from './fetch-bounded.js';

/** Largest OpenAPI document read, as a file or as a URL's body (compressed and decompressed alike). */
const MAX_OPENAPI_BYTES = 8 * 1024 * 1024;
/**
 * Largest OpenAPI document given as YAML: parsing YAML takes some fifty times
 * the text in memory (JSON five), so a larger document is asked for as JSON.
 */
const MAX_OPENAPI_YAML_BYTES = 2 * 1024 * 1024;
/** Most aliases a YAML document may expand (an alias bomb is refused before it is expanded). */
const MAX_OPENAPI_ALIASES = 10_000;
/** Deepest nesting of `[ ]` and `{ }` read: OpenAPI documents nest a few dozen levels. */
const MAX_OPENAPI_NESTING = 256;

/** An OpenAPI document as parsed JSON. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths?: Record<string, unknown> };

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Parses document text (JSON, else YAML) and checks that it is an OpenAPI 3.x document. */
export function parseOpenApiText(text: string, source: string): OpenApiDocument {
  let doc: unknown;
  const isJson = /^\s*\{/.test(text);
  const bytes = Buffer.byteLength(text);
  if (!isJson && bytes > MAX_OPENAPI_YAML_BYTES) {
    throw new HarnessError(
      'E_FILE_UNREADABLE',
      `cannot parse OpenAPI document ${source}: as YAML it may hold ${MAX_OPENAPI_YAML_BYTES} bytes, it holds ${bytes} (give it as JSON, up to ${MAX_OPENAPI_BYTES} bytes)`,
    );
  }
  if (nestsDeeperThan(text, MAX_OPENAPI_NESTING)) {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot parse OpenAPI document ${source}: it nests deeper than ${MAX_OPENAPI_NESTING} levels of [ ] or { }`);
  }
  try {
    // JSON first: YAML reads it too, but far more slowly.
    doc = isJson ? JSON.parse(text) : parseYaml(text, { maxAliasCount: MAX_OPENAPI_ALIASES });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const why = /excessive alias count/i.test(message)
      ? `YAML aliases expand past the bound of ${MAX_OPENAPI_ALIASES} (maxAliasCount)`
      : oneLine(withoutExcerpt(message));
    throw new HarnessError('E_FILE_UNREADABLE', `cannot parse OpenAPI document ${source}: ${why}`, { cause: err });
  }
  const o = doc as Partial<OpenApiDocument> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o) || typeof o.openapi !== 'string' || !o.openapi.startsWith('3.')) {
    throw new HarnessError('E_FILE_UNREADABLE', `${source} is not an OpenAPI 3 document (no "openapi: 3.x" field)`);
  }
  return o as OpenApiDocument;
}

let bundled: OpenApiDocument | undefined;

/** The bundled document of the reference API, parsed once per process (the mock serves it, SC-01 reads it). */
export function bundledOpenApiDocument(): OpenApiDocument {
  if (!bundled) {
    const file = bundledOpenApiPath('json');
    bundled = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  }
  return bundled;
}

/** A regular file of at most {@link MAX_OPENAPI_BYTES}. */
async function readDocumentFile(source: string): Promise<string> {
  try {
    return (await readRegularFile(source, { maxBytes: MAX_OPENAPI_BYTES, what: 'OpenAPI document' })).toString('utf8');
  } catch (err) {
    const code = ((err as { cause?: { code?: string } }).cause ?? {}).code;
    if (code === 'ENOENT') throw new HarnessError('E_FILE_UNREADABLE', `cannot read OpenAPI document ${source}: no such file`, { cause: err });
    throw err;
  }
}

/**
 * Loads an OpenAPI document from a file path or an http(s) URL; no source
 * means the bundled document of the reference API. A file must be a regular
 * file, a URL may redirect only within its origin, and either holds at most
 * {@link MAX_OPENAPI_BYTES} (YAML {@link MAX_OPENAPI_YAML_BYTES}). A document
 * that cannot be read is E_FILE_UNREADABLE naming it and why.
 */
export async function loadOpenApiDocument(source?: string | null): Promise<OpenApiDocument> {
  if (source === undefined || source === null) return bundledOpenApiDocument();
  const text = isUrl(source)
    ? await fetchBounded(source, { what: 'OpenAPI document', maxBytes: MAX_OPENAPI_BYTES, accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' })
    : await readDocumentFile(source);
  return parseOpenApiText(text, source);
}
