import { request } from 'undici';

/** Default time a receiver has to answer a webhook, in real milliseconds (REFERENCE-API.md section 9). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * POSTs one webhook body and returns the status answered, or null when no
 * answer came within `timeoutMs` (real time) or the connection failed.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: Buffer, timeoutMs: number): Promise<number | null> {
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not used, but must be drained so the connection can be reused.
    await res.body.dump().catch(() => undefined);
    return res.statusCode;
  } catch {
    return null;
  }
}

/** Tracks promises in flight so callers can wait until none is left. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Starts tracking `p`; it is dropped once settled. */
  track(p: Promise<unknown>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p)).catch(() => undefined);
  }

  /** Resolves once nothing is in flight (including work started while waiting). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** RFC 3339 UTC with milliseconds, as every timestamp of the reference API. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
