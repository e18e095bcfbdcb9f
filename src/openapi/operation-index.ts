import { resolvePointer } from './json-pointer.js';
import type { OpenApiDocument } from './load-document.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of a document, with the full path template it answers on. */
export interface IndexedOperation {
  /** `POST /v1/{product}/bookings`: the method and the full path template (server path + path). */
  name: string;
  method: string;
  /** Pointer segments of the operation object, from the document's root. */
  segments: string[];
  responses: Record<string, unknown>;
  pattern: RegExp;
  /** Templated segments; fewer is more specific (OpenAPI: concrete paths match first). */
  params: number;
}

/** The path part of a server URL (`http://h:1/v1` → `/v1`; variables take their defaults; relative URLs are relative to the root). */
function serverPrefix(server: unknown): string {
  const s = server as { url?: unknown; variables?: Record<string, { default?: unknown }> } | undefined;
  if (typeof s?.url !== 'string') return '';
  const url = s.url.replace(/\{([^}]+)\}/g, (_m, name: string) => String(s.variables?.[name]?.default ?? ''));
  try {
    return new URL(url, 'http://relative.invalid/').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function prefixes(...levels: unknown[]): string[] {
  for (const servers of levels) {
    if (Array.isArray(servers) && servers.length > 0) return [...new Set(servers.map(serverPrefix))];
  }
  return [''];
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/**
 * Every operation of a document under its servers' path prefixes, most
 * specific first, so an exchange's method and URL path find their operation.
 */
export class OperationIndex {
  readonly operations: readonly IndexedOperation[];

  constructor(doc: OpenApiDocument) {
    const out: IndexedOperation[] = [];
    for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
      let item = rawItem as Record<string, unknown>;
      let itemSegments = ['paths', path];
      if (typeof item?.$ref === 'string') {
        const r = resolvePointer(doc, item.$ref);
        if (!r) continue;
        item = r.value as Record<string, unknown>;
        itemSegments = r.segments;
      }
      if (typeof item !== 'object' || item === null) continue;
      for (const method of METHODS) {
        const op = item[method] as Record<string, unknown> | undefined;
        if (!op || typeof op !== 'object') continue;
        for (const prefix of prefixes(op.servers, item.servers, doc.servers)) {
          const template = `${prefix}${path}`;
          out.push({
            name: `${method.toUpperCase()} ${template}`,
            method: method.toUpperCase(),
            segments: [...itemSegments, method],
            responses: (op.responses ?? {}) as Record<string, unknown>,
            pattern: templatePattern(template),
            params: (template.match(/\{[^}]+\}/g) ?? []).length,
          });
        }
      }
    }
    this.operations = out.sort((a, b) => a.params - b.params);
  }

  /** The operation a method and URL path name, if the document has it. */
  find(method: string, path: string): IndexedOperation | undefined {
    const m = method.toUpperCase();
    return this.operations.find((o) => o.method === m && o.pattern.test(path));
  }
}
