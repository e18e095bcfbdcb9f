/** The two exchanges of a broken replay: the original answer and the replay that differs from it. */
export interface ReplayPair {
  original: string;
  replay: string;
}

/** An exchange that decided a violation: a response the property judged, or the id of its exchange. */
export type Decisive = { exchange: { id: string } } | string;

/** What a violation points at: the exchanges that broke the promise, and the broken replay when that was the promise. */
export interface ViolationFocus {
  /** The request(s) and answer(s) that broke the promise, most telling first; reports show them before the run's other exchanges. */
  decisive?: readonly Decisive[];
  pair?: ReplayPair;
}

/**
 * A property's promise was broken: thrown inside a run, it carries the
 * exchanges of that run as evidence, the ones that decided it (a broken
 * replay's pair first), and the broken replay when that was the promise.
 */
export class PropertyViolation extends Error {
  /** Exchange ids of the decisive exchanges, each once, all of them in `evidence`. */
  readonly decisive: string[];

  constructor(
    message: string,
    readonly evidence: string[],
    readonly pair?: ReplayPair,
    decisive: readonly Decisive[] = [],
  ) {
    super(message);
    this.name = 'PropertyViolation';
    const ids = [...(pair ? [pair.original, pair.replay] : []), ...decisive.map((d) => (typeof d === 'string' ? d : d.exchange.id))];
    this.decisive = [...new Set(ids)].filter((id) => evidence.includes(id) || id === pair?.original || id === pair?.replay);
  }
}
