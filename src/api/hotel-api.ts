import type { Dispatcher } from 'undici';
import type { ExchangeRecorder } from '../client/exchange.js';
import { HotelClient } from '../client/hotel-client.js';
import { HarnessError } from '../errors/harness-error.js';
import type { OperationDef, Profile, ResolvedAgency } from '../profile/index.js';
import { definedFields } from './_internal/defined-fields.js';
import { encodeBody, toApiResponse } from './_internal/to-api-response.js';
import { fillPath, getArray, getString, setTemplate } from './fields.js';
import { uniqueClientReference } from './target-api.js';
import type { ApiResponse, CallOptions, HotelApi } from './types.js';

/** Options of {@link createHotelApi}. */
interface HotelApiOptions {
  profile: Profile;
  agency: ResolvedAgency;
  recorder?: ExchangeRecorder;
  /** Target clock, ms since epoch. @defaultValue `Date.now` */
  now?: () => number;
  dispatcher?: Dispatcher;
}

/** A HotelApi that owns a connection pool. */
export interface ClosableHotelApi extends HotelApi {
  close(): Promise<void>;
}

/** The partner hotel API as one agency sees it, driven by the profile; throws E_PROFILE_INVALID when the profile has no hotel base url. */
export function createHotelApi(options: HotelApiOptions): ClosableHotelApi {
  const { profile, agency } = options;
  if (!profile.hotel_base_url) {
    throw new HarnessError('E_PROFILE_INVALID', `profile ${profile.name} has no hotel_base_url: the hotel API cannot be reached`);
  }
  const now = options.now ?? Date.now;
  const ops = profile.operations;
  const f = profile.fields;
  const client = new HotelClient({
    baseUrl: profile.hotel_base_url,
    apiKey: agency.hotelApiKey,
    apiKeyHeader: profile.headers.hotel_api_key,
    recorder: options.recorder,
    now,
    timeoutMs: profile.request_timeout_ms,
    maxResponseBytes: profile.max_response_bytes,
    dispatcher: options.dispatcher,
  });

  async function call(method: string, path: string, body: unknown, opts?: CallOptions & { apiKey?: string | null }): Promise<ApiResponse> {
    const raw = await client.request({ method, path, body: encodeBody(body), headers: opts?.headers, label: opts?.label, apiKey: opts?.apiKey });
    return toApiResponse(raw, profile.headers, now());
  }

  const op = (def: OperationDef, vars: Record<string, string>, body: unknown, opts?: CallOptions) => call(def.method, fillPath(def.path, vars), body, opts);

  return {
    raw: (method, path, body, opts) => call(method, path, body, opts),

    async availability(opts) {
      const res = await op(ops.hotel_availability, {}, setTemplate(profile.hotel_availability_body, {}), opts);
      const rateKeys: string[] = [];
      for (const hotel of getArray(res.json, f.hotel_hotels)) {
        for (const rate of getArray(hotel, f.hotel_rates)) {
          const key = getString(rate, f.hotel_rate_key);
          if (key !== undefined) rateKeys.push(key);
        }
      }
      return { ...res, rateKeys };
    },

    async book(rateKey, opts) {
      const body = setTemplate(profile.hotel_booking_body, { rate_key: rateKey, client_reference: opts?.clientReference ?? uniqueClientReference() });
      const res = await op(ops.hotel_create_booking, {}, body, opts);
      return { ...res, ...definedFields({ reference: getString(res.json, f.hotel_reference) }) };
    },

    cancel: (reference, opts) => op(ops.hotel_cancel_booking, { reference }, undefined, opts),

    setWebhook: (url, opts) => op(ops.hotel_set_webhook, {}, setTemplate(profile.hotel_webhook_body ?? { url: '{url}' }, { url }), opts),

    close: () => client.close(),
  };
}
