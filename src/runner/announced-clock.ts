import type { ClockDriver } from '../clock/clock-driver.js';
import type { RunListener } from './run-events.js';

/** Waits shorter than this pass unannounced: a person would not notice them. */
const ANNOUNCED_WAIT_MS = 1000;

/**
 * The clock a case of a real-time run sees: the run's, announcing each wait
 * of a second or more (its length and who waits) as a `waiting` event, so a
 * run that sits still says why and for how long. A driven clock moves at
 * once: nothing to announce, it is handed back as it is.
 */
export function announcedClock(clock: ClockDriver, who: string, emit: RunListener): ClockDriver {
  if (clock.kind !== 'real') return clock;
  const announce = (ms: number, why: string | undefined): void => {
    if (ms >= ANNOUNCED_WAIT_MS) emit({ type: 'waiting', ms, reason: why ? `${who} waits for ${why}` : `${who} lets time pass at the target` });
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
