import { randomBytes } from 'node:crypto';

/** Shape of a run id: UTC date and time, then 4 hex characters. */
export const RUN_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

/**
 * A new run id such as `20261121-194501-ab12`: UTC time so ids sort by
 * start, plus random hex so two runs in the same second never share a folder.
 */
export function newRunId(date: Date = new Date(), suffix: string = randomBytes(2).toString('hex')): string {
  const p = (v: number, w = 2): string => String(v).padStart(w, '0');
  const day = `${p(date.getUTCFullYear(), 4)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}`;
  const time = `${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
  return `${day}-${time}-${suffix}`;
}
