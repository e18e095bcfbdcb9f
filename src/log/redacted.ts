/**
 * What a secret is replaced by wherever it could reach a person: log lines,
 * recorded evidence, reports and certificates. One spelling, so a reader (or
 * a test) can search for it.
 */
export const REDACTED = '[REDACTED]';
