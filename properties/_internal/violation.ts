/** The two exchanges of a broken replay: the original answer and the replay that differs from it. */
export interface ReplayPair {
  original: string;
  replay: string;
}

/** A property's promise was broken: thrown inside a run, it carries the exchanges of that run as evidence, and the broken replay when that was the promise. */
export class PropertyViolation extends Error {
  constructor(
    message: string,
    readonly evidence: string[],
    readonly pair?: ReplayPair,
  ) {
    super(message);
    this.name = 'PropertyViolation';
  }
}
