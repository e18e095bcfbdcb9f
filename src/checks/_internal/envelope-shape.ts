import { getField } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';

/** What an error response is judged on: its headers (lower-case names) and raw body. */
interface ErrorResponseView {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

function header(headers: Record<string, string>, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want) return v;
  return undefined;
}

/**
 * Every way an error response leaves the one envelope (REFERENCE-API.md
 * section 4): JSON content type and body, an UPPER_SNAKE code, a details
 * object, a message string, and a request id equal to the request-id header.
 */
export function envelopeProblems(res: ErrorResponseView, profile: Profile): string[] {
  const problems: string[] = [];
  const f = profile.fields;
  const contentType = header(res.headers, 'content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) problems.push(`content type is "${contentType || '(none)'}", not JSON`);
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    problems.push(`body is not JSON (${JSON.stringify(res.body.slice(0, 60))})`);
    return problems;
  }
  const code = getField(json, f.error_code);
  if (typeof code !== 'string') problems.push(`no string error code at ${f.error_code}`);
  else if (!UPPER_SNAKE.test(code)) problems.push(`error code "${code}" is not UPPER_SNAKE`);
  const details = getField(json, f.error_details);
  if (details === null || typeof details !== 'object' || Array.isArray(details)) problems.push(`${f.error_details} is not an object`);
  if (typeof getField(json, f.error_message) !== 'string') problems.push(`${f.error_message} is not a string`);
  const requestId = getField(json, f.error_request_id);
  const headerId = header(res.headers, profile.headers.request_id);
  if (typeof requestId !== 'string' || requestId === '') problems.push(`no request id at ${f.error_request_id}`);
  if (headerId === undefined) problems.push(`no ${profile.headers.request_id} header`);
  else if (typeof requestId === 'string' && requestId !== headerId)
    problems.push(`${f.error_request_id} "${requestId}" differs from ${profile.headers.request_id} "${headerId}"`);
  return problems;
}
