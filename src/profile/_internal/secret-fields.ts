/**
 * Which profile fields may hold a secret, so that a validation message names
 * the field and the type that came, never the value.
 */

const SECRET_NAME = /secret|key|token|password|_env$/i;

/** True when any segment of a profile path (`agencies[0].secret`, `headers.x-api-key`) names a secret-like field. */
export function isSecretPath(path: string): boolean {
  return path
    .split(/[.[\]]+/)
    .filter((s) => s !== '' && !/^\d+$/.test(s))
    .some((s) => SECRET_NAME.test(s));
}

/** The type of a value, for a message that must not show the value itself. */
export function typeOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return `a ${typeof value}`;
}
