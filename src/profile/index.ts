/** Target profiles: loading, validation, secrets. */
export type * from './types.js';
export { DEFAULT_PROFILE } from './defaults.js';
export { loadProfile, parseProfileText } from './load-profile.js';
export { resolveProfile, profileProblems } from './validate-profile.js';
export { resolveAgencies, secretsOf, type SecretNeeds } from './resolve-secrets.js';
export { redactor, type Redact } from './redactor.js';
