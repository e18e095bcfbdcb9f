import type { Check, CheckOutcome } from '../checks/types.js';

/**
 * A check of a certification plan: a suite check's id, title and clause, and
 * its outcome built by the same verdict builder (`Findings`), run on what
 * certification has in hand instead of a suite run's context: an agency's
 * own access to a service, or what the mock observed of a client.
 */
export interface CertCheck<Context, Outcome extends CheckOutcome | Promise<CheckOutcome> = Promise<CheckOutcome>> extends Pick<
  Check,
  'id' | 'title' | 'clause'
> {
  run(ctx: Context): Outcome;
}
