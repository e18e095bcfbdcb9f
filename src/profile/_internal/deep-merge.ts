/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Paths whose value a profile replaces whole instead of merging into:
 * request-body templates and per-product criteria are shapes of the target,
 * so keys of the reference API must not leak into them; the clock is a union.
 * `*` matches any one key.
 */
const REPLACED = [
  'clock',
  'failure_trigger',
  'search_criteria.*',
  'search_body',
  'booking_body',
  'cancel_body',
  'hotel_availability_body',
  'hotel_booking_body',
];

function replaced(path: string[]): boolean {
  return REPLACED.some((pattern) => {
    const parts = pattern.split('.');
    return parts.length === path.length && parts.every((p, i) => p === '*' || p === path[i]);
  });
}

/**
 * Deep-merges `override` over `base` into a new value: objects merge key by
 * key, arrays and scalars (and the paths above) replace, `undefined` keeps base.
 */
export function deepMerge(base: unknown, override: unknown, path: string[] = []): unknown {
  if (override === undefined) return structuredClone(base);
  if (path.length > 0 && replaced(path)) return structuredClone(override);
  if (!isPlainObject(base) || !isPlainObject(override)) return structuredClone(override);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) out[k] = structuredClone(v);
  for (const [k, v] of Object.entries(override)) {
    out[k] = k in base ? deepMerge(base[k], v, [...path, k]) : structuredClone(v);
  }
  return out;
}

/** Freezes a value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
