import type { CaseRunResult } from '../../results/run-result.js';

/**
 * The run's seed as every report says it: a load and a certification draw
 * nothing at random, so they have none (their `seed` field is 0, which is no
 * seed a run could be replayed with).
 */
export function seedWords(result: CaseRunResult): { seed: string; why?: string } {
  if (result.kind === 'load') return { seed: 'none', why: 'a load draws nothing at random' };
  if (result.kind === 'certificate') return { seed: 'none', why: 'a certification draws nothing at random' };
  return { seed: String(result.seed) };
}

/** Whether the run is a practice certification: certify against the mock bundled with the harness, which certifies nothing about any service. */
export function isPracticeRun(result: CaseRunResult): boolean {
  return result.kind === 'certificate' && result.target.embedded;
}
