import { getField } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import type { ReceivedDelivery } from '../../receiver/index.js';
import type { CheckOutcome } from '../types.js';
import { errored } from '../findings.js';

/** One webhook attempt as the receiver recorded it: plain data, so a judge can run on recorded deliveries. */
export interface WhAttempt {
  /** Receiver's arrival order. */
  seq: number;
  path: string;
  /** Lower-case header names; repeated headers joined by `, `. */
  headers: Record<string, string>;
  /** The raw body as UTF-8 text (signatures are verified over these bytes). */
  text: string;
  /** Arrival time on the target's clock, ms. */
  receivedAt: number;
  /** Status the receiver answered. */
  status: number;
}

/** What a webhook scenario set up and saw. */
export interface WhRun {
  scheme: 'service' | 'hotel';
  /** Scenario name (`failing`, `fail-once`, …). */
  kind: string;
  /** Receiver path the target was told to call. */
  path: string;
  /** What the receiver answered, in words (`500 always`, `500 then 200`). */
  plan: string;
  /** Booking id (service) or hotel reference whose events are watched. */
  subjectId: string;
  /** Exchanges that set the scenario up (endpoint, search, booking, replay, cancellation). */
  exchangeIds: string[];
  /** Named exchanges the judges cite (`booking`, `replay`, `cancellation`, `endpoint`). */
  exchanges: Record<string, string>;
  /** Attempts that concern the subject, in arrival order. */
  attempts: WhAttempt[];
  /** Target time the first attempt was awaited from, and until when the receiver was watched. */
  startedAt: number;
  watchedUntil: number;
  /** Why the scenario could not be set up (the judges answer ERROR). */
  error?: string;
}

/** A received delivery as plain data. */
export function toAttempt(d: ReceivedDelivery): WhAttempt {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return { seq: d.seq, path: d.path, headers, text: d.text, receivedAt: d.receivedAt, status: d.status };
}

/** A header of an attempt, by a profile header name. */
export function whHeader(a: WhAttempt, name: string): string | undefined {
  return a.headers[name.toLowerCase()];
}

/** The parsed JSON body of an attempt, or undefined. */
function whJson(a: WhAttempt): unknown {
  try {
    return JSON.parse(a.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The event id and type of a service attempt's body, by the profile's field paths. */
export function whEvent(a: WhAttempt, profile: Profile): { id: unknown; type: unknown; bookingId: unknown } {
  const body = whJson(a);
  return {
    id: getField(body, profile.fields.event_id),
    type: getField(body, profile.fields.event_type),
    bookingId: getField(body, profile.fields.event_booking_id),
  };
}

/** True when the raw body names `id` as a JSON string (booking ids and references are unique, so this ties an event to its subject). */
export function mentions(text: string, id: string): boolean {
  return text.includes(JSON.stringify(id));
}

/** The larger of 1.5 s and 20 % of `expectedMs`: how far a measured retry gap may stray. */
export function gapToleranceMs(expectedMs: number): number {
  return Math.max(1500, 0.2 * expectedMs);
}

/** The evidence of a run: its named exchanges, then the others. */
export function runEvidence(run: WhRun, ...names: string[]): string[] {
  const first = names.map((n) => run.exchanges[n]).filter((x): x is string => x !== undefined);
  return [...first, ...run.exchangeIds.filter((id) => !first.includes(id))];
}

/** A one-line summary of attempts for messages: `#1 500 @+0.0s, #2 500 @+5.0s`. */
export function describeAttempts(attempts: readonly WhAttempt[], attemptHeader: string): string {
  const t0 = attempts[0]?.receivedAt ?? 0;
  return attempts.map((a) => `#${whHeader(a, attemptHeader) ?? '?'} ${a.status} @+${((a.receivedAt - t0) / 1000).toFixed(1)}s`).join(', ');
}

/** The outcome of a run that could not be set up, or undefined. */
export function whSetupError(run: WhRun): CheckOutcome | undefined {
  return run.error === undefined ? undefined : errored(`webhook scenario "${run.kind}" could not be set up: ${run.error}`, ...run.exchangeIds);
}
