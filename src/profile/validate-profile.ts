import { HarnessError } from '../errors/harness-error.js';
import { deepFreeze, deepMerge } from './_internal/deep-merge.js';
import { validate } from './_internal/schema.js';
import { DEFAULT_PROFILE } from './defaults.js';
import { PROFILE_SCHEMA } from './profile-schema.js';
import type { Profile } from './types.js';

/** Every problem of a merged profile, one message per wrong or unknown field; empty when it is valid. */
export function profileProblems(candidate: unknown): string[] {
  return validate(PROFILE_SCHEMA, candidate, '');
}

/** The one place where a candidate becomes a Profile: when the schema finds no problem with it. */
function isProfile(_candidate: unknown, problems: readonly string[]): _candidate is Profile {
  return problems.length === 0;
}

/**
 * Options in, resolved profile out: deep-merges `input` over DEFAULT_PROFILE
 * (arrays replace), validates, freezes. Throws one E_PROFILE_INVALID listing
 * every problem; `source` names the file in the message.
 */
export function resolveProfile(input: unknown, source = 'profile'): Readonly<Profile> {
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw new HarnessError(
      'E_PROFILE_INVALID',
      `${source} is invalid: it must hold an object of settings, got ${Array.isArray(input) ? 'a list' : typeof input}`,
    );
  }
  const merged = deepMerge(DEFAULT_PROFILE, input ?? {});
  const problems = profileProblems(merged);
  if (!isProfile(merged, problems)) {
    const n = problems.length;
    throw new HarnessError('E_PROFILE_INVALID', `${source} is invalid (${n} problem${n > 1 ? 's' : ''}): ${problems.join('; ')}`, {
      cause: { problems },
    });
  }
  return deepFreeze(merged);
}
