import { setTimeout as sleep } from 'node:timers/promises';

/** A wait of the load path in real time: how long, and why. */
export interface LoadWait {
  ms: number;
  why: string;
}

/** Told of every wait longer than {@link ANNOUNCE_ABOVE_MS} before it starts. */
export type OnLoadWait = (w: LoadWait) => void;

/** Waits up to this long pass unannounced: a pause that short needs no explanation. */
export const ANNOUNCE_ABOVE_MS = 1000;

/** Sleeps `ms` of real time, telling `onWait` first when the wait is longer than a second. */
export async function announcedSleep(ms: number, why: string, onWait: OnLoadWait | undefined, signal?: AbortSignal): Promise<void> {
  if (ms > ANNOUNCE_ABOVE_MS) onWait?.({ ms, why });
  await sleep(ms, undefined, signal ? { signal } : undefined);
}
