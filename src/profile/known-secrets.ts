import { redactor, type BytesRedact } from './redactor.js';
import type { Profile } from './types.js';

/*
 * Every secret this process has learnt (the agencies' secrets as they are
 * resolved, the user and password of the profile's URLs), so the places
 * that cannot be handed a list, the console, the logs and evidence cut at
 * its size limit, redact them all. A secret is never forgotten: redacting a
 * string that belongs to a finished run costs nothing but a little time.
 */
const known = new Set<string>();
let current: BytesRedact | undefined;

/** Adds secrets to those this process redacts everywhere. */
export function rememberSecrets(secrets: Iterable<string | undefined>): void {
  const before = known.size;
  for (const s of secrets) if (typeof s === 'string' && s !== '') known.add(s);
  if (known.size !== before) current = undefined;
}

/** Every secret remembered so far. */
export function knownSecrets(): string[] {
  return [...known];
}

/** A redactor of every secret remembered so far (rebuilt only when one is added). */
export function knownSecretsRedactor(): BytesRedact {
  current ??= redactor(known);
  return current;
}

/** The user and password of a URL, decoded, when it has any. */
function userinfoOf(url: string | null | undefined): string[] {
  if (url === undefined || url === null) return [];
  try {
    const u = new URL(url);
    return [u.username, u.password].flatMap((p) => (p === '' ? [] : [p, decodeURIComponent(p)]));
  } catch {
    return [];
  }
}

/**
 * Every secret a profile holds or names, whatever the work at hand needs:
 * each agency's literal secrets and those of its `*_env` variables that are
 * set, and the userinfo of its URLs. Other agencies' secrets are redacted in
 * one agency's evidence too.
 */
export function profileSecrets(
  profile: Pick<Profile, 'agencies' | 'base_url'> & { hotel_base_url?: string | null | undefined },
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const out: string[] = [...userinfoOf(profile.base_url), ...userinfoOf(profile.hotel_base_url)];
  for (const def of profile.agencies) {
    for (const field of ['secret', 'webhook_secret', 'hotel_api_key', 'hotel_webhook_secret'] as const) {
      const literal = def[field];
      const name = def[`${field}_env`];
      const value = literal ?? (name !== undefined ? env[name] : undefined);
      if (value !== undefined && value !== '') out.push(value);
    }
  }
  return out;
}
