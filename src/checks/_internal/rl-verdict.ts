import type { CheckOutcome } from '../types.js';

/**
 * Gathers the problems a rate-limit or webhook judge found, each with the
 * exchange ids that show it, and turns them into one outcome.
 */
export class RlVerdict {
  private readonly problems: string[] = [];
  private readonly blamed: string[] = [];
  private readonly seen: string[] = [];

  /** Exchanges that support the verdict whatever it is. */
  see(...ids: (string | undefined)[]): this {
    for (const id of ids) if (id && !this.seen.includes(id)) this.seen.push(id);
    return this;
  }

  /** A broken promise and the exchanges that show it. */
  fail(message: string, ...ids: (string | undefined)[]): this {
    this.problems.push(message);
    for (const id of ids) if (id && !this.blamed.includes(id)) this.blamed.push(id);
    return this;
  }

  /** True when no problem was recorded. */
  get ok(): boolean {
    return this.problems.length === 0;
  }

  /** PASS with `passMessage`, or FAIL naming every problem (evidence: the blamed exchanges first). */
  outcome(passMessage: string, details?: Record<string, unknown>): CheckOutcome {
    const base = details ? { details } : {};
    if (this.ok) return { verdict: 'PASS', message: passMessage, evidence: [...this.seen], ...base };
    const evidence = [...this.blamed, ...this.seen.filter((id) => !this.blamed.includes(id))];
    return { verdict: 'FAIL', message: this.problems.join('; '), evidence, ...base };
  }
}
