/**
 * A typed key of the run cache. Keys compare by identity, so two modules can
 * never share an entry by choosing the same name; the name is for messages.
 */
export class RunCacheKey<T> {
  /** The type of the value kept under this key; never set (it exists for the compiler only). */
  declare readonly valueType: T;
  constructor(readonly name: string) {}
}

/**
 * State shared by the checks of one run (for instance one webhook scenario
 * several checks judge): made by the first check that asks, and dropped with
 * the run. Nothing outlives it, so two runs in one process never see each
 * other's state.
 */
export interface RunCache {
  /** The value under `key`, made by `create` the first time it is asked for. */
  getOrCreate<T>(key: RunCacheKey<T>, create: () => T): T;
}

/** An empty run cache, one per run. */
export function createRunCache(): RunCache {
  const values = new Map<RunCacheKey<unknown>, unknown>();
  return {
    getOrCreate<T>(key: RunCacheKey<T>, create: () => T): T {
      if (values.has(key)) return values.get(key) as T;
      const value = create();
      values.set(key, value);
      return value;
    },
  };
}
