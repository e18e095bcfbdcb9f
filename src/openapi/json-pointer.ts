/** Escapes one JSON pointer segment (RFC 6901). */
function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A URI fragment (`#/a/b`) naming `segments` from the document's root. */
export function fragmentOf(segments: readonly string[]): string {
  return `#${segments.map((s) => `/${encodeURIComponent(escapePointerSegment(s))}`).join('')}`;
}

/** Follows a local pointer (`#/components/schemas/X`) in `doc`; undefined when it leads nowhere. */
export function resolvePointer(doc: unknown, ref: string): { value: unknown; segments: string[] } | undefined {
  if (!ref.startsWith('#')) return undefined;
  const segments = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: unknown = doc;
  for (const s of segments) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at === undefined ? undefined : { value: at, segments };
}
