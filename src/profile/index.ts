/** Target profiles: loading, validation, secrets. */
export type * from './types.js';
export { loadProfile } from './load-profile.js';
export { resolveProfile } from './validate-profile.js';
