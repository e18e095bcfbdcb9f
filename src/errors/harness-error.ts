import { ERROR_CODES, type ErrorCode } from './codes.js';

/** An error with a stable code; the CLI prints its message in one line and exits with its code's exit status. */
export class HarnessError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
  }

  /** The process exit status for this error. */
  get exitCode(): number {
    return ERROR_CODES[this.code].exit;
  }
}

/** True when `err` is a HarnessError. */
export function isHarnessError(err: unknown): err is HarnessError {
  return err instanceof HarnessError;
}

/**
 * Maps a transport-level failure (undici, node:net) onto a harness error,
 * keeping the original as `cause`.
 */
export function fromTransportError(err: unknown, target: string): HarnessError {
  if (isHarnessError(err)) return err;
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  const unreachable = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ECONNRESET']);
  if (code && unreachable.has(code)) {
    return new HarnessError('E_TARGET_UNREACHABLE', `target ${target} does not answer (${code})`, { cause: err });
  }
  return new HarnessError('E_TRANSPORT', `request to ${target} failed: ${e?.message ?? String(err)}`, { cause: err });
}
