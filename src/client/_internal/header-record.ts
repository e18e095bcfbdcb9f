import type { Dispatcher } from 'undici';

/** Request headers in any form undici takes, as one lower-case record (repeated values joined by `, `). */
export function headersToRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  const entries: Iterable<[string, unknown]> =
    Symbol.iterator in (headers as object) ? (headers as Iterable<[string, unknown]>) : Object.entries(headers as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** Response headers as undici hands them (lower-case names), repeated values joined by `, `. */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const v = headers[name];
    if (v === undefined) continue;
    out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
