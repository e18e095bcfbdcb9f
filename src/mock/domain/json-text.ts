/**
 * An answer body already written as UTF-8 JSON: the pipeline sends its bytes
 * as they are instead of stringifying a value (used where the answer is
 * assembled from cached fragments, see `search-answers.ts`).
 */
export class JsonText {
  constructor(readonly utf8: Buffer) {}

  /** The parsed value, so that stringifying a JsonText gives the same JSON. */
  toJSON(): unknown {
    return JSON.parse(this.utf8.toString('utf8'));
  }
}
