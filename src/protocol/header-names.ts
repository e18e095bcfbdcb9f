/** Header carrying a service event's id, the same on every attempt (REFERENCE-API.md section 9). */
export const SVC_WEBHOOK_ID_HEADER = 'X-SVC-Webhook-Id';
/** Header carrying the Unix seconds of one service delivery attempt. */
export const SVC_WEBHOOK_TIMESTAMP_HEADER = 'X-SVC-Webhook-Timestamp';
/** Header carrying the service signature list, `v1,<base64>`. */
export const SVC_WEBHOOK_SIGNATURE_HEADER = 'X-SVC-Webhook-Signature';
/** Header carrying the attempt number (1, 2, 3) of a service delivery. */
export const SVC_WEBHOOK_ATTEMPT_HEADER = 'X-SVC-Webhook-Attempt';
/** Header carrying the hotel API's `t=…,v1=…` signature (REFERENCE-API.md section 10). */
export const HOTEL_WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** Header names of the service's webhooks; a target profile may rename them. */
export interface ServiceWebhookHeaderNames {
  id: string;
  timestamp: string;
  signature: string;
  attempt: string;
}

/** The reference API's service webhook header names. */
export const DEFAULT_SERVICE_WEBHOOK_HEADERS: Readonly<ServiceWebhookHeaderNames> = Object.freeze({
  id: SVC_WEBHOOK_ID_HEADER,
  timestamp: SVC_WEBHOOK_TIMESTAMP_HEADER,
  signature: SVC_WEBHOOK_SIGNATURE_HEADER,
  attempt: SVC_WEBHOOK_ATTEMPT_HEADER,
});

/** A verdict of a signature verification; `reason` names what failed. */
export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

/** Why a webhook signature was refused. */
export type VerifyFailure = 'missing-header' | 'malformed-header' | 'malformed-timestamp' | 'timestamp-outside-tolerance' | 'bad-secret' | 'signature-mismatch';

/** Default tolerance between a webhook's timestamp and the verifier's clock, in seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_S = 300;

/** Reads a header from a Node-style header record, whatever the case of `name`. */
export function readHeader(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const lower = name.toLowerCase();
  let value = headers[lower];
  if (value === undefined) {
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() === lower) {
        value = v;
        break;
      }
    }
  }
  return Array.isArray(value) ? value.join(', ') : value;
}
