import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { signHeaders } from './signer.js';

/** What the client needs to reach the service. */
export interface ServiceConfig {
  /** Base URL ending in /v1. */
  baseUrl: string;
  keyId: string;
  secret: string;
  log?: (line: string) => void;
}

/** A final answer of the service. */
export interface ServiceResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** The error code of an error envelope, if any. */
export function errorCode(res: ServiceResponse): string | undefined {
  return typeof res.body?.error?.code === 'string' ? res.body.error.code : undefined;
}

/** Statuses worth retrying: the answer may not be final. */
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const MAX_ATTEMPTS = 6;
const BASE_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;

/**
 * A small client of the service: signs every request (a fresh nonce and
 * timestamp per attempt), and retries what may safely be retried.
 *
 * - 429: waits at least `Retry-After` seconds, then retries.
 * - 5xx and transport failures (a refused connection, an answer cut off
 *   mid-body): exponential backoff, then retries.
 * - Every retry sends the very same body bytes and, for writes, the very same
 *   `Idempotency-Key`, so the service replays the original answer instead of
 *   acting twice.
 */
export class ServiceClient {
  private readonly origin: string;
  private readonly prefix: string;
  private readonly agent = new Agent({ connections: 4 });
  private readonly log: (line: string) => void;

  constructor(private readonly config: ServiceConfig) {
    const url = new URL(config.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/$/, '');
    this.log = config.log ?? (() => undefined);
  }

  /** GET `path` (relative to the base URL, e.g. `/account`). */
  get(path: string): Promise<ServiceResponse> {
    return this.send('GET', path, undefined);
  }

  /** POST a JSON body; `idempotent: true` adds a fresh Idempotency-Key kept for every retry. */
  post(path: string, body: unknown, options: { idempotent?: boolean } = {}): Promise<ServiceResponse> {
    return this.send('POST', path, body, options.idempotent ? randomUUID() : undefined);
  }

  /** PUT a JSON body. */
  put(path: string, body: unknown): Promise<ServiceResponse> {
    return this.send('PUT', path, body);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async send(method: string, path: string, body: unknown, idempotencyKey?: string): Promise<ServiceResponse> {
    const pathAndQuery = `${this.prefix}${path}`;
    // Serialised once: every attempt carries the same bytes.
    const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body), 'utf8');
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        ...signHeaders({ keyId: this.config.keyId, secret: this.config.secret, method, pathAndQuery, body: bytes }),
        ...(bytes.length > 0 ? { 'content-type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      };
      let res: ServiceResponse | undefined;
      let failure: string | undefined;
      try {
        const r = await request(`${this.origin}${pathAndQuery}`, {
          method: method as 'GET',
          headers,
          body: bytes.length > 0 ? bytes : null,
          dispatcher: this.agent,
        });
        const text = await r.body.text();
        res = { status: r.statusCode, headers: r.headers, body: text === '' ? undefined : JSON.parse(text) };
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
      }
      if (attempt >= MAX_ATTEMPTS) {
        if (res) return res;
        throw new Error(`${method} ${path} failed after ${attempt} attempts: ${failure}`);
      }
      let waitMs: number;
      if (res?.status === 429) {
        const retryAfter = Number(res.headers['retry-after']);
        // Never sooner than the service asked; a little later, so the retry is not on the edge.
        waitMs = (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt)) + 100;
        this.log(`${method} ${path}: 429, waiting ${waitMs} ms as Retry-After says`);
      } else if (res && errorCode(res) === 'IDEMPOTENCY_KEY_IN_USE') {
        waitMs = backoff(attempt);
      } else if (!res || RETRY_STATUSES.has(res.status)) {
        waitMs = backoff(attempt);
        this.log(
          `${method} ${path}: ${res ? res.status : failure}; retrying in ${waitMs} ms${idempotencyKey ? ` with the same Idempotency-Key ${idempotencyKey}` : ''}`,
        );
      } else {
        return res;
      }
      await sleep(waitMs);
    }
  }
}

function backoff(attempt: number): number {
  const ms = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
  return ms + Math.floor(Math.random() * (ms / 4));
}
