/** The error envelope of every error response: `{error: {code, message, details, request_id}}`. */
interface ErrorEnvelope {
  error: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

/** Builds the envelope for an error. */
export function errorEnvelope(code: string, message: string, details: Record<string, unknown>, requestId: string): ErrorEnvelope {
  return { error: { code, message, details, request_id: requestId } };
}
