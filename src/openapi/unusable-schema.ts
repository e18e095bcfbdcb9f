/**
 * A part of the OpenAPI document that cannot be used to judge a response: a
 * `$ref` cycle, a `$ref` that leads nowhere, a `pattern` the linear-time
 * engine cannot evaluate. SC-01 reports it as an ERROR naming it, never as a
 * verdict on the target.
 */
export class UnusableSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnusableSchemaError';
  }
}
