import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { withoutExcerpt } from '../errors/parser-message.js';
import { bundledOpenApiPath } from './bundled-document.js';

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
  try {
    // JSON first: YAML reads it too, but far more slowly.
    doc = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot parse OpenAPI document ${source}: ${oneLine(withoutExcerpt(err instanceof Error ? err.message : String(err)))}`, { cause: err });
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

/**
 * Loads an OpenAPI document from a file path or an http(s) URL; no source
 * means the bundled document of the reference API. A document that cannot be
 * read is E_FILE_UNREADABLE naming it.
 */
export async function loadOpenApiDocument(source?: string | null): Promise<OpenApiDocument> {
  if (source === undefined || source === null) return bundledOpenApiDocument();
  let text: string;
  try {
    if (isUrl(source)) {
      const res = await fetch(source, { headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' }, signal: AbortSignal.timeout(15_000) });
      if (!res.ok) throw new Error(`it answered HTTP ${res.status}`);
      text = await res.text();
    } else text = await readFile(source, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : err instanceof Error ? err.message : String(err);
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read OpenAPI document ${source}: ${why}`, { cause: err });
  }
  return parseOpenApiText(text, source);
}
