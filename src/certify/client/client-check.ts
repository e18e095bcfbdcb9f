import type { CheckOutcome } from '../../checks/types.js';
import type { Area } from '../../results/model.js';
import type { CertCheck } from '../cert-check.js';
import type { ObservedRequest, WebhookProbe } from './observed.js';

/** The agency's signing credentials. */
export interface SigningKey {
  keyId: string;
  secret: string;
}

/** What a client check judges: what certification mode observed in one run. */
export interface ClientObservation {
  /** The certified agency's requests, and those that did not authenticate at all (signing judges them too). */
  requests: readonly ObservedRequest[];
  /** The certified agency's requests only. */
  mine: readonly ObservedRequest[];
  probes: readonly WebhookProbe[];
  /** The webhook URL the client registered, if any. */
  webhookUrl: string | undefined;
  key: SigningKey;
}

/**
 * One graded item of the client plan: a check of what the mock observed.
 * Grading is a pure function of the observation, so it answers at once.
 */
export interface ClientCheck extends CertCheck<ClientObservation, CheckOutcome> {
  /** Short name, used in evidence file names. */
  slug: string;
  area: Area;
}

/** The verdict of one graded item, with the ids of the exchanges that show it. */
export interface GradedItem extends CheckOutcome {
  item: ClientCheck;
  evidence: string[];
}
