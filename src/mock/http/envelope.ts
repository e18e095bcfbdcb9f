import { randomBytes } from 'node:crypto';

/** The error envelope of every error response: `{error: {code, message, details, request_id}}`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

/** A fresh request id, `req_` + 20 base32-ish characters. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

/** Builds the envelope for an error. */
export function errorEnvelope(code: string, message: string, details: Record<string, unknown>, requestId: string): ErrorEnvelope {
  return { error: { code, message, details, request_id: requestId } };
}
