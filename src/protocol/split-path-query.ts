/**
 * Splits `a/b?x=1` into path and raw query (without `?`); `query`, when
 * given, is appended to any inline query with `&`.
 */
export function splitPathQuery(pathAndQuery: string, query?: string): { path: string; query: string } {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const inline = q === -1 ? '' : pathAndQuery.slice(q + 1);
  const extra = query === undefined ? '' : query.startsWith('?') ? query.slice(1) : query;
  return { path, query: inline && extra ? `${inline}&${extra}` : inline || extra };
}
