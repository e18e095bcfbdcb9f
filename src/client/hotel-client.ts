import { REDACTED } from '../log/redacted.js';
import { ExchangeClient, type ExchangeClientOptions } from './exchange-client.js';
import type { RawResponse } from './recording-interceptor.js';
import { splitPathQuery } from '../protocol/index.js';
import type { ClientRequest } from './service-client.js';

/** Options of a hotel API client. */
interface HotelClientOptions extends ExchangeClientOptions {
  /** The agency's hotel API key; recorded redacted. */
  apiKey: string | undefined;
  /** Name of the API key header (`profile.headers.hotel_api_key`). @defaultValue `x-api-key` */
  apiKeyHeader?: string | undefined;
}

/** One request to the hotel API (its `path` is relative to the hotel base address). */
interface HotelRequest extends ClientRequest {
  /** Key to send instead of the agency's; `null` sends no key header at all. */
  apiKey?: string | null | undefined;
}

/**
 * A client of the partner hotel API: adds the API key header and records
 * each exchange. The agency's key is redacted in the evidence; a deliberately
 * wrong key (sent by a check) is recorded as sent, since it proves the refusal.
 */
export class HotelClient {
  private readonly transport: ExchangeClient;
  private readonly apiKey: string | undefined;
  private readonly header: string;

  constructor(options: HotelClientOptions) {
    this.transport = new ExchangeClient(options);
    this.apiKey = options.apiKey;
    this.header = (options.apiKeyHeader ?? 'x-api-key').toLowerCase();
  }

  /** The target clock, ms since epoch. */
  now(): number {
    return this.transport.now();
  }

  /** Sends one request; resolves with any HTTP status, rejects (HarnessError) only on transport failure. */
  request(req: HotelRequest): Promise<RawResponse> {
    const split = splitPathQuery(req.path, req.query);
    const path = this.transport.absolutePath(split.path);
    const key = req.apiKey === undefined ? this.apiKey : req.apiKey;
    const headers: Record<string, string> = {};
    if (key !== null && key !== undefined) headers[this.header] = key;
    if (req.body !== undefined && req.body.length > 0) headers['content-type'] = 'application/json';
    if (req.headers) Object.assign(headers, req.headers);
    let recordedHeaders: Record<string, string> | undefined;
    if (this.apiKey && headers[this.header] === this.apiKey) {
      recordedHeaders = { ...headers, [this.header]: REDACTED };
    }
    return this.transport.send({ method: req.method, path, query: split.query, headers, body: req.body, label: req.label, recordedHeaders });
  }

  /** Closes the connection pool it owns. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
