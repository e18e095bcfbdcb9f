/**
 * The one catalogue of harness error codes. A code is never reused; each maps
 * to the process exit code the CLI uses when the error reaches it.
 *
 * Exit codes of errors: 2 bad usage or configuration; 3 target unreachable;
 * 70 a bug. Failed verdicts and gates are results, not errors: cli/exit-codes.ts
 * maps those (1 and 99).
 */
export const ERROR_CODES = {
  /** A command-line option has a wrong value. */
  E_USAGE: { exit: 2, summary: 'bad command-line usage' },
  /** A target profile failed validation; the message lists each wrong field. */
  E_PROFILE_INVALID: { exit: 2, summary: 'target profile is invalid' },
  /** A file the user named could not be read or parsed. */
  E_FILE_UNREADABLE: { exit: 2, summary: 'a file could not be read' },
  /** A mock fixture file is invalid. */
  E_FIXTURE_INVALID: { exit: 2, summary: 'mock fixture is invalid' },
  /** A scenario file is invalid. */
  E_SCENARIO_INVALID: { exit: 2, summary: 'scenario file is invalid' },
  /** A known-issues file is invalid: not YAML, a wrong entry, or an id no case has. */
  E_KNOWN_ISSUES_INVALID: { exit: 2, summary: 'known-issues file is invalid' },
  /** A required environment variable (a secret) is missing. */
  E_SECRET_MISSING: { exit: 2, summary: 'a secret is missing from the environment' },
  /** A port is already taken. */
  E_PORT_IN_USE: { exit: 2, summary: 'port already in use' },
  /** The target did not answer (connection refused, DNS, timeout). */
  E_TARGET_UNREACHABLE: { exit: 3, summary: 'target unreachable' },
  /** An HTTP exchange failed at the transport level. */
  E_TRANSPORT: { exit: 3, summary: 'transport error' },
  /**
   * A response body was larger than the client reads. The target answered
   * something no check can judge: a failure of the target (exit 1), not of
   * usage or configuration.
   */
  E_RESPONSE_TOO_LARGE: { exit: 1, summary: 'response body too large' },
  /** Report files could not be written (folder not writable, disk full). */
  E_REPORT_WRITE: { exit: 2, summary: 'reports could not be written' },
  /** A bug in the harness itself. */
  E_INTERNAL: { exit: 70, summary: 'internal error' },
} as const satisfies Record<string, { exit: number; summary: string }>;

/** A harness error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
