import { AsyncLocalStorage } from 'node:async_hooks';

/** What a {@link RoundTripMeter} counted. */
interface RoundTripCount {
  /** Requests sent (each attempt of a retried one counts). */
  requests: number;
  /**
   * Round trips one after another: a request sent while another of the scope
   * is in flight adds none, so a burst of a hundred is one, a chain of five
   * is five. Against a distant target the wall time is about this many
   * round-trip times.
   */
  roundTrips: number;
}

/** Counts the requests of one scope and how many of them followed one another. */
export class RoundTripMeter {
  private inFlight = 0;
  private readonly count: RoundTripCount = { requests: 0, roundTrips: 0 };

  /** Notes a request leaving; the function returned notes its answer (or failure). Call it once. */
  begin(): () => void {
    this.count.requests += 1;
    if (this.inFlight === 0) this.count.roundTrips += 1;
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
    };
  }

  /** The counts so far. */
  read(): RoundTripCount {
    return { ...this.count };
  }
}

const scope = new AsyncLocalStorage<RoundTripMeter>();

/**
 * Runs `fn` with every request it sends (through an exchange client or the
 * admin API) counted by `meter`. A scope rather than an option, so that the
 * shared clients of a run count for the check that uses them.
 */
export function withRoundTrips<T>(meter: RoundTripMeter, fn: () => Promise<T>): Promise<T> {
  return scope.run(meter, fn);
}

/** Notes a request leaving in the running scope; the function returned notes its end. Nothing outside a scope. */
export function beginRoundTrip(): () => void {
  return scope.getStore()?.begin() ?? noop;
}

function noop(): void {}
