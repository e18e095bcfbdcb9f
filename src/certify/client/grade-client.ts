import type { ClientObservation, GradedItem, SigningKey } from './client-check.js';
import { CLIENT_CHECKS } from './client-plan.js';
import type { Observation } from './observed.js';

/** What the client checks judge of an observation: only the certified agency's requests (plus, for signing, those that failed to authenticate at all). */
export function clientObservation(observation: Observation, key: SigningKey): ClientObservation {
  const requests = observation.requests.filter((r) => r.agencyId === observation.agencyId || r.agencyId === null);
  return {
    requests,
    mine: requests.filter((r) => r.agencyId === observation.agencyId),
    probes: observation.probes,
    webhookUrl: observation.webhookUrl,
    key,
  };
}

/**
 * Grades an agency's client from what certification mode observed: a pure
 * function of the observation, one verdict per check of the client plan, in
 * the plan's order.
 */
export function gradeClient(observation: Observation, key: SigningKey): GradedItem[] {
  const input = clientObservation(observation, key);
  return CLIENT_CHECKS.map((item) => {
    const outcome = item.run(input);
    return { item, ...outcome, evidence: outcome.evidence ?? [] };
  });
}
