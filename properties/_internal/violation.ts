/** A property's promise was broken: thrown inside a run, it carries the exchanges of that run as evidence. */
export class PropertyViolation extends Error {
  constructor(
    message: string,
    readonly evidence: string[],
  ) {
    super(message);
    this.name = 'PropertyViolation';
  }
}
