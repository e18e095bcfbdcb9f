import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from '../domain/api-error.js';
import { errorEnvelope } from './envelope.js';
import type { WireResponse } from './wire.js';

/** JSON content type of every answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Turns any error into the envelope response (an unexpected one is a 500 INTERNAL_ERROR). */
export function errorResponse(err: unknown, requestId: string, defects: DefectSet): WireResponse {
  const e = err instanceof ApiError ? err : new ApiError(500, 'INTERNAL_ERROR', 'the mock failed to handle this request');
  if (e.code === 'NOT_FOUND' && defects.has('error-outside-envelope')) {
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-request-id': requestId }, body: 'Not Found' };
  }
  return {
    status: e.status,
    headers: { ...e.headers, 'content-type': JSON_TYPE, 'x-request-id': requestId },
    // The defect names another request in the body than in the header, for 409 conflicts only.
    body: JSON.stringify(
      errorEnvelope(e.code, e.message, e.details, e.status === 409 && defects.has('error-request-id-mismatch') ? `${requestId}-x` : requestId),
    ),
  };
}
