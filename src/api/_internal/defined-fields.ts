/**
 * The fields of `o` that hold a value: a field read from a response that was
 * not there stays absent (`?:`), rather than present and `undefined`.
 */
export function definedFields<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: { [K in keyof T]?: Exclude<T[K], undefined> } = {};
  for (const key of Object.keys(o) as Array<keyof T>) {
    const v = o[key];
    if (v !== undefined) out[key] = v as Exclude<T[keyof T], undefined>;
  }
  return out;
}
