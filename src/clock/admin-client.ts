import { request } from 'undici';
import { beginRoundTrip } from '../client/round-trip-scope.js';
import { HarnessError, fromTransportError } from '../errors/harness-error.js';

/** The mock's admin API, as the harness uses it. */
export interface AdminClient {
  readonly url: string;
  /** `{now_ms, offset_ms}` of the mock's clock, and `next_due_ms` (the instant its next webhook attempt falls due, null when none waits) when the mock says. */
  clock(): Promise<{ now_ms: number; offset_ms: number; next_due_ms?: number | null }>;
  /**
   * Moves the mock's clock forward by `ms`, or to the instant `untilMs` when
   * given (a mock that knows `until_ms` answers how far it moved as `moved_ms`;
   * an older one moves by `ms`); answers once due webhook attempts are made.
   */
  advance(ms: number, untilMs?: number): Promise<unknown>;
  /** State back to the fixture (clock offset and defects stay). */
  reset(): Promise<void>;
  /** Puts the mock's clock back to real time (offset 0). */
  resetClock(): Promise<void>;
}

/** The header every admin request carries (REFERENCE-API.md section 11); the mock refuses a request without it. */
const ADMIN_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'x-svc-admin': '1' });

async function call(base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  const endTrip = beginRoundTrip();
  try {
    return await send(url, method, body);
  } finally {
    endTrip();
  }
}

async function send(url: string, method: 'GET' | 'POST', body: unknown): Promise<unknown> {
  let res;
  try {
    res = await request(url, {
      method,
      headers: body === undefined ? { ...ADMIN_HEADERS } : { ...ADMIN_HEADERS, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
  } catch (err) {
    throw fromTransportError(err, `admin API ${url}`);
  }
  const text = await res.body.text();
  if (res.statusCode >= 300) {
    throw new HarnessError('E_TRANSPORT', `admin API ${method} ${url} answered ${res.statusCode}: ${text.slice(0, 200)}`, {
      cause: { status: res.statusCode },
    });
  }
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/** A client of the mock's admin API at `adminUrl` (e.g. `http://127.0.0.1:8489/__admin`). */
export function createAdminClient(adminUrl: string): AdminClient {
  // Set once the target refused a move to an instant (`until_ms`).
  let instantRefused = false;
  return {
    url: adminUrl,
    async clock() {
      const body = (await call(adminUrl, 'GET', '/clock')) as { now_ms?: unknown; offset_ms?: unknown; next_due_ms?: unknown } | undefined;
      if (typeof body?.now_ms !== 'number') {
        throw new HarnessError('E_TRANSPORT', `admin API ${adminUrl}/clock answered without a numeric now_ms`);
      }
      const due = body.next_due_ms;
      return {
        now_ms: body.now_ms,
        offset_ms: typeof body.offset_ms === 'number' ? body.offset_ms : 0,
        ...(due === null || (typeof due === 'number' && Number.isFinite(due)) ? { next_due_ms: due } : {}),
      };
    },
    async advance(ms, untilMs) {
      if (untilMs === undefined || instantRefused) return call(adminUrl, 'POST', '/clock/advance', { ms });
      try {
        return await call(adminUrl, 'POST', '/clock/advance', { ms, until_ms: untilMs });
      } catch (err) {
        // REFERENCE-API.md section 11 names only `ms`: an implementation that refuses the extra field moves by `ms` from now on.
        if (!refusedRequest(err)) throw err;
        instantRefused = true;
        return call(adminUrl, 'POST', '/clock/advance', { ms });
      }
    },
    async reset() {
      await call(adminUrl, 'POST', '/reset', {});
    },
    async resetClock() {
      await call(adminUrl, 'POST', '/clock/reset', {});
    },
  };
}

/** True when `err` is the admin API refusing a request as malformed (a 4xx answer), not a transport failure. */
function refusedRequest(err: unknown): boolean {
  const status = (err as { cause?: { status?: unknown } } | undefined)?.cause?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
