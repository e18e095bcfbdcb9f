import { getField } from '../../api/fields.js';
import type { ApiResponse } from '../../api/types.js';
import type { ErrorDef, Profile } from '../../profile/index.js';

/** The part of a response a judge reads. */
export type Answer = Pick<ApiResponse, 'status' | 'headers' | 'text' | 'json' | 'exchange'>;

/** The error code of a response at the profile's path, when it is a string. */
export function codeOf(res: Pick<Answer, 'json'>, profile: Profile): string | undefined {
  const v = getField(res.json, profile.fields.error_code);
  return typeof v === 'string' ? v : undefined;
}

/** `201` or `410 QUOTE_EXPIRED`: how an answer reads in a message. */
export function describeAnswer(res: Pick<Answer, 'status' | 'json'>, profile: Profile): string {
  if (res.status < 400) return String(res.status);
  const code = codeOf(res, profile);
  return code ? `${res.status} ${code}` : `${res.status} without an error code`;
}

/** `<what> answered 201, expected 410 QUOTE_EXPIRED`, or undefined when status and code are as expected. */
export function errorMismatch(res: Pick<Answer, 'status' | 'json'>, expected: ErrorDef, what: string, profile: Profile): string | undefined {
  if (res.status === expected.status && codeOf(res, profile) === expected.code) return undefined;
  return `${what} answered ${describeAnswer(res, profile)}, expected ${expected.status} ${expected.code}`;
}

/** `<what> answered 404 NOT_FOUND, expected 2xx`, or undefined for a 2xx answer. */
export function successMismatch(res: Pick<Answer, 'status' | 'json'>, what: string, profile: Profile): string | undefined {
  if (res.status >= 200 && res.status < 300) return undefined;
  return `${what} answered ${describeAnswer(res, profile)}, expected 2xx`;
}

/** True for a 2xx answer. */
export function isSuccess(res: Pick<Answer, 'status'>): boolean {
  return res.status >= 200 && res.status < 300;
}
