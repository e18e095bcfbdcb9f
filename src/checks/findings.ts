/*
 * The verdict builder of every check, and of the judges outside `src/checks/`
 * (certification): one evidence rule for the whole harness.
 */
import type { CheckOutcome } from './types.js';

/** Anything that names an exchange: a response, an exchange, a shot, or its id. */
export type EvidenceRef = { exchange: { id: string } } | { id: string } | { exchangeId: string } | string | undefined | null;

/** The exchange id an evidence reference names. */
export function evidenceId(ref: EvidenceRef): string | undefined {
  if (ref === undefined || ref === null) return undefined;
  if (typeof ref === 'string') return ref === '' ? undefined : ref;
  if ('exchange' in ref) return ref.exchange.id;
  if ('exchangeId' in ref) return ref.exchangeId;
  return ref.id;
}

function addIds(to: Set<string>, refs: readonly EvidenceRef[]): void {
  for (const r of refs) {
    const id = evidenceId(r);
    if (id) to.add(id);
  }
}

/**
 * The one verdict builder of every check: it collects what a judge saw, each
 * problem or warning with the exchanges that show it, and turns them into one
 * outcome under one evidence rule.
 *
 * - FAIL cites the exchanges the failures named (only when none named one,
 *   every exchange seen), so a reader opens exactly the culprits.
 * - WARN cites the exchanges the warnings named, then those seen.
 * - PASS cites the exchanges seen; a judge that saw none had nothing to judge,
 *   and that is a WARN saying so, never a PASS.
 */
export class Findings {
  private readonly problems: string[] = [];
  private readonly warnings: string[] = [];
  // Sets keep first-seen order: the first exchange cited is the first one named.
  private readonly seen = new Set<string>();
  private readonly blamed = new Set<string>();
  private readonly warned = new Set<string>();

  /** Records exchanges that support the verdict whatever it is. */
  see(...refs: EvidenceRef[]): this {
    addIds(this.seen, refs);
    return this;
  }

  /** Records a broken promise and the exchanges that show it. */
  fail(message: string, ...refs: EvidenceRef[]): this {
    this.problems.push(message);
    addIds(this.blamed, refs);
    return this;
  }

  /** Records a doubt that is not a broken promise, with the exchanges behind it. */
  warn(message: string, ...refs: EvidenceRef[]): this {
    this.warnings.push(message);
    addIds(this.warned, refs);
    return this;
  }

  /** Records `message` as a problem unless `ok` (then the exchanges count as seen); returns `ok`. */
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

  /**
   * FAIL with every problem, else WARN with every warning, else PASS with
   * `passMessage`; WARN too when no exchange was seen at all (nothing to judge).
   */
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
    if (this.seen.size === 0) {
      return withDetails({ verdict: 'WARN', message: `nothing to judge: no exchange was seen that could show this (${passMessage})`, evidence: [] });
    }
    return withDetails({ verdict: 'PASS', message: passMessage, evidence: [...this.seen] });
  }
}

/** A SKIP outcome naming why the check could not run here. */
export function skipped(message: string, ...refs: EvidenceRef[]): CheckOutcome {
  const ids = new Set<string>();
  addIds(ids, refs);
  return { verdict: 'SKIP', message, evidence: [...ids] };
}

/** An ERROR outcome: the harness could not set the check up (not a verdict on the target). */
export function errored(message: string, ...refs: EvidenceRef[]): CheckOutcome {
  const ids = new Set<string>();
  addIds(ids, refs);
  return { verdict: 'ERROR', message, evidence: [...ids] };
}
