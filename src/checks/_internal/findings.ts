import type { CheckOutcome } from '../types.js';

/** Anything that names an exchange: a response, an exchange, or its id. */
export type EvidenceRef = { exchange: { id: string } } | { id: string } | string | undefined | null;

/** The exchange id an evidence reference names. */
export function evidenceId(ref: EvidenceRef): string | undefined {
  if (ref === undefined || ref === null) return undefined;
  if (typeof ref === 'string') return ref;
  if ('exchange' in ref) return ref.exchange.id;
  return ref.id;
}

/**
 * Collects what a judge saw: each problem or warning with the exchanges that
 * show it, so that the outcome cites exactly those exchanges.
 */
export class Findings {
  private readonly problems: string[] = [];
  private readonly warnings: string[] = [];
  private readonly seen = new Set<string>();
  private readonly blamed = new Set<string>();
  private readonly warned = new Set<string>();

  /** Records exchanges that support the verdict whatever it is. */
  see(...refs: EvidenceRef[]): this {
    for (const r of refs) {
      const id = evidenceId(r);
      if (id) this.seen.add(id);
    }
    return this;
  }

  /** Records a broken promise and the exchanges that show it. */
  fail(message: string, ...refs: EvidenceRef[]): this {
    this.problems.push(message);
    for (const r of refs) {
      const id = evidenceId(r);
      if (id) this.blamed.add(id);
    }
    return this;
  }

  /** Records a doubt that is not a broken promise. */
  warn(message: string, ...refs: EvidenceRef[]): this {
    this.warnings.push(message);
    for (const r of refs) {
      const id = evidenceId(r);
      if (id) this.warned.add(id);
    }
    return this;
  }

  /** Records `message` as a problem unless `ok`; returns `ok`. */
  expect(ok: boolean, message: string, ...refs: EvidenceRef[]): boolean {
    if (!ok) this.fail(message, ...refs);
    else this.see(...refs);
    return ok;
  }

  /** Records a problem when `problem` is defined (a mismatch text); returns true when there was none. */
  check(problem: string | undefined, ...refs: EvidenceRef[]): boolean {
    return this.expect(problem === undefined, problem ?? '', ...refs);
  }

  /** True once any problem was recorded. */
  get failed(): boolean {
    return this.problems.length > 0;
  }

  /** The problems recorded so far. */
  get problemList(): readonly string[] {
    return this.problems;
  }

  /** FAIL with every problem, else WARN with every warning, else PASS with `passMessage`. */
  outcome(passMessage: string, details?: Record<string, unknown>): CheckOutcome {
    const withDetails = (o: CheckOutcome): CheckOutcome => (details ? { ...o, details } : o);
    if (this.problems.length > 0) {
      const evidence = this.blamed.size > 0 ? [...this.blamed] : [...this.seen];
      return withDetails({ verdict: 'FAIL', message: this.problems.join('; '), evidence });
    }
    if (this.warnings.length > 0) {
      const evidence = [...new Set([...this.warned, ...this.seen])];
      return withDetails({ verdict: 'WARN', message: this.warnings.join('; '), evidence });
    }
    return withDetails({ verdict: 'PASS', message: passMessage, evidence: [...this.seen] });
  }
}

/** A SKIP outcome naming why the check could not run here. */
export function skipped(message: string, ...refs: EvidenceRef[]): CheckOutcome {
  return { verdict: 'SKIP', message, evidence: refs.map(evidenceId).filter((x): x is string => x !== undefined) };
}
