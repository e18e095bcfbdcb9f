import type { ClockDriver } from '../clock/clock-driver.js';
import type { RunListener } from './run-events.js';

/** Waits shorter than this pass unannounced: a person would not notice them. */
const ANNOUNCED_WAIT_MS = 1000;

/**
 * The clock a case of a real-time run sees: the run's, announcing each wait
 * of a second or more (its length and who waits) as a `waiting` event, so a
 * run that sits still says why and for how long; a wait for the same reason
 * as one announced that ends less than a second later is not told again. A driven clock moves at
 * once: nothing to announce, it is handed back as it is.
 */
export function announcedClock(clock: ClockDriver, who: string, emit: RunListener): ClockDriver {
  if (clock.kind !== 'real') return clock;
  /** When the longest wait announced for each reason ends: waits side by side for one reason (quote-lock's redemptions) are told once, and again only when one ends a second or more later. */
  const told = new Map<string, number>();
  const announce = (ms: number, why: string | undefined): void => {
    if (ms < ANNOUNCED_WAIT_MS) return;
    const reason = why ? `${who} waits for ${why}` : `${who} lets time pass at the target`;
    const end = clock.now() + ms;
    // Within a second of the end already told, it is the same wait to a person.
    if ((told.get(reason) ?? -Infinity) + ANNOUNCED_WAIT_MS > end) return;
    told.set(reason, end);
    emit({ type: 'waiting', ms, reason });
  };
  return {
    kind: clock.kind,
    now: () => clock.now(),
    fineUntil: (instant) => clock.fineUntil(instant),
    waitUntil(instant, why) {
      announce(instant - clock.now(), why);
      return clock.waitUntil(instant, why);
    },
    wait(ms, why) {
      announce(ms, why);
      return clock.wait(ms, why);
    },
  };
}
