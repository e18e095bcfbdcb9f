/* Fresh values of one run: the unique ids its requests carry and its seed. */
import { randomBytes } from 'node:crypto';

/** A `unique(prefix)` for one run: prefix + run id + counter, so that reruns against a long-lived deployment never collide. */
export function uniqueFactory(runId: string): (prefix: string) => string {
  let counter = 0;
  return (prefix) => {
    counter += 1;
    return `${prefix}${runId}-${String(counter).padStart(4, '0')}`;
  };
}

/** A random 31-bit seed. */
export function randomSeed(): number {
  return randomBytes(4).readUInt32BE(0) >>> 1;
}
