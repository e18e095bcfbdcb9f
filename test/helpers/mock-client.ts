import { request } from 'undici';
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';
import { createMock, type AgencyCredentials, type RunningMock } from '../../src/mock/create-mock.js';
import type { MockOptions } from '../../src/mock/options.js';

/** A response read whole. */
export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  raw: Buffer;
  text: string;
  json: any;
}

/** Options of one signed request. */
export interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Unix seconds; default the mock clock's now. */
  timestamp?: number;
  nonce?: string;
  /** Signs with this secret instead of the agency's. */
  secret?: string;
  /** Sends without any auth header. */
  unsigned?: boolean;
  idempotencyKey?: string;
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}

async function read(res: Awaited<ReturnType<typeof request>>): Promise<TestResponse> {
  const raw = Buffer.from(await res.body.arrayBuffer());
  const text = raw.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers, raw, text, json };
}

/** A client of a running mock, signing each request for one agency. */
export class MockClient {
  readonly origin: string;

  constructor(
    readonly mock: RunningMock,
    readonly agency: AgencyCredentials,
  ) {
    this.origin = mock.baseUrl.replace(/\/v1$/, '');
  }

  /** Sends a signed request to `path` (starting with /v1, may carry a query). */
  async send(method: string, path: string, opts: SendOptions = {}): Promise<TestResponse> {
    const body = bodyBytes(opts.body);
    const q = path.indexOf('?');
    const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}) };
    if (!opts.unsigned) {
      const sig = signRequest({
        method,
        path: q === -1 ? path : path.slice(0, q),
        query: q === -1 ? '' : path.slice(q + 1),
        body,
        keyId: this.agency.key_id,
        secret: opts.secret ?? this.agency.secret,
        timestamp: opts.timestamp ?? Math.floor(this.mock.clock.now() / 1000),
        nonce: opts.nonce ?? freshNonce(),
      });
      Object.assign(headers, sig.headers);
    }
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    Object.assign(headers, opts.headers);
    const res = await request(`${this.origin}${path}`, { method: method as 'GET', headers, body: body ?? null });
    return read(res);
  }

  get(path: string, opts?: SendOptions): Promise<TestResponse> {
    return this.send('GET', path, opts);
  }

  post(path: string, body?: unknown, opts: SendOptions = {}): Promise<TestResponse> {
    return this.send('POST', path, { ...opts, body });
  }

  /** Searches and returns the first result. */
  async quote(
    product = 'flights',
    criteria?: Record<string, unknown>,
  ): Promise<{ result_id: string; quote_token: string; quote_expires_at: string; price: { amount: number; currency: string } }> {
    const res = await this.post(`/v1/${product}/search`, { criteria: criteria ?? CRITERIA[product] });
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${res.text}`);
    return res.json.results[0];
  }

  /** Books a fresh quote. */
  book(product: string, quoteToken: string, key: string, extra: Record<string, unknown> = {}): Promise<TestResponse> {
    return this.post(
      `/v1/${product}/bookings`,
      { quote_token: quoteToken, travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }], ...extra },
      { idempotencyKey: key },
    );
  }

  async balance(): Promise<number> {
    return (await this.get('/v1/wallet/balance')).json.balance;
  }
}

/** Valid criteria per product. */
export const CRITERIA: Record<string, Record<string, unknown>> = {
  flights: { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-01', adults: 2 },
  transfers: { pickup: 'Airport', dropoff: 'Hotel Central', date: '2026-12-01', passengers: 3 },
  activities: { destination: 'Lisbon', date: '2026-12-01', participants: 4 },
  cars: { pickup_location: 'Nice', dropoff_location: 'Nice', pickup_date: '2026-12-01', dropoff_date: '2026-12-05', driver_age: 30 },
};

/** Raw (unsigned) request to any URL. */
export async function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<TestResponse> {
  const res = await request(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers ?? {}, body: init.body ?? null });
  return read(res);
}

/** A request to the mock's admin API, with the header every admin request carries (REFERENCE-API.md section 11). */
export async function adminRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<TestResponse> {
  return rawRequest(url, { ...init, headers: { 'x-svc-admin': '1', ...init.headers } });
}

/** Starts a mock on port 0 with clients for alpha, beta and gamma. */
export async function startMock(options: MockOptions = {}): Promise<{
  mock: RunningMock;
  alpha: MockClient;
  beta: MockClient;
  gamma: MockClient;
  client(agencyId: string): MockClient;
}> {
  const mock = await createMock({ admin: true, ...options });
  const client = (id: string): MockClient => {
    const a = mock.agencies.find((x) => x.agency_id === id);
    if (!a) throw new Error(`no agency ${id}`);
    return new MockClient(mock, a);
  };
  return { mock, alpha: client('agency-alpha'), beta: client('agency-beta'), gamma: client('agency-gamma'), client };
}
