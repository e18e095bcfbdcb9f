import { HarnessError } from '../errors/harness-error.js';
import { rememberSecrets } from './known-secrets.js';
import type { AgencyDef, Profile, ResolvedAgency } from './types.js';

/** Which secrets the selected work really needs; a missing one of these is an error, any other is left out. */
export interface SecretNeeds {
  /** How many agencies must be able to sign (1 = the primary only). @defaultValue 1 */
  agencies?: number;
  /** The service webhook secret of the primary agency (the webhook checks register its endpoint). */
  webhookSecret?: boolean;
  /** The hotel API key (and hotel webhook secret) of the primary agency. */
  hotel?: boolean;
}

type SecretField = 'secret' | 'webhook_secret' | 'hotel_api_key' | 'hotel_webhook_secret';

/** The literal or environment value of one secret; `missing` names the variable when it is unset. */
function lookup(def: AgencyDef, field: SecretField, env: NodeJS.ProcessEnv): { value?: string; missing?: string } {
  const literal = def[field];
  if (literal !== undefined) return { value: literal };
  const name = def[`${field}_env`];
  if (name === undefined) return {};
  const value = env[name];
  return value === undefined || value === '' ? { missing: name } : { value };
}

/**
 * Resolves the agencies' secrets from literals or `*_env` variables. An agency
 * whose signing secret is unset is left out (with every one after it, so that
 * indexes keep their meaning) unless `needs` requires it; a needed secret that
 * is unset throws E_SECRET_MISSING naming the variable. Values are never logged.
 */
export function resolveAgencies(profile: Pick<Profile, 'agencies'>, env: NodeJS.ProcessEnv = process.env, needs: SecretNeeds = {}): ResolvedAgency[] {
  const required = Math.max(1, needs.agencies ?? 1);
  const missing: string[] = [];
  const out: ResolvedAgency[] = [];
  for (const [i, def] of profile.agencies.entries()) {
    const mustSign = i < required;
    const secret = lookup(def, 'secret', env);
    const optional: Array<[SecretField, keyof ResolvedAgency, boolean]> = [
      ['webhook_secret', 'webhookSecret', i === 0 && needs.webhookSecret === true],
      ['hotel_api_key', 'hotelApiKey', i === 0 && needs.hotel === true],
      ['hotel_webhook_secret', 'hotelWebhookSecret', i === 0 && needs.hotel === true],
    ];
    const found = optional.map(([field, key, needed]) => ({ field, key, needed, ...lookup(def, field, env) }));
    // Every missing variable is named in one message, the signing secret's and the others' alike, so one fix suffices.
    if (secret.value === undefined && mustSign) missing.push(`${secret.missing ?? '(none)'} (agencies[${i}].secret_env, agency ${def.id})`);
    if (mustSign || secret.value !== undefined) {
      for (const f of found) if (f.needed && f.missing) missing.push(`${f.missing} (agencies[${i}].${f.field}_env, agency ${def.id})`);
    }
    if (secret.value === undefined) {
      if (mustSign) continue;
      break;
    }
    const agency: ResolvedAgency = { id: def.id, keyId: def.key_id, secret: secret.value };
    for (const f of found) if (f.value !== undefined) (agency as unknown as Record<string, string>)[f.key] = f.value;
    if (def.limits) agency.limits = { read: def.limits.read, write: def.limits.write };
    out.push(agency);
  }
  if (profile.agencies.length < required) {
    missing.push(`a ${ordinal(required)} agency (the profile lists ${profile.agencies.length})`);
  }
  rememberSecrets(secretsOf(out));
  if (missing.length > 0) {
    throw new HarnessError('E_SECRET_MISSING', `secret missing: set the environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }
  return out;
}

function ordinal(n: number): string {
  return n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}

/** Every secret string of the resolved agencies, for the redactor. */
export function secretsOf(agencies: readonly ResolvedAgency[]): string[] {
  return agencies.flatMap((a) => [a.secret, a.webhookSecret, a.hotelApiKey, a.hotelWebhookSecret].filter((s): s is string => typeof s === 'string'));
}
