import type { ExchangeRecorder } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { RateLimitPoint } from '../results/model.js';
import { createHotelApi, type ClosableHotelApi } from './hotel-api.js';
import { createTargetApi, type ClosableTargetApi } from './target-api.js';
import type { HotelApi, TargetApi } from './types.js';
import { HarnessError } from '../errors/harness-error.js';

/** Options of `agencyApis`. */
interface AgencyApisOptions {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  recorder: ExchangeRecorder;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Called for every rate-limit point of the service APIs. */
  onRateLimit?: (point: RateLimitPoint) => void;
}

/** The service and hotel APIs of a run's agencies, each opened on first use and then shared. */
interface AgencyApis {
  /** The service as agency `index` (0 = primary) sees it; throws when there is no such agency. */
  api(index?: number): TargetApi;
  /** The hotel API as agency `index` sees it; undefined when the profile has no hotel API or the agency no key. */
  hotel(index?: number): HotelApi | undefined;
  /** Closes every API opened; a failure to close one does not stop the others. */
  close(): Promise<void>;
}

/** Opens the APIs of `agencies` lazily, one per agency and kind, all recording into one recorder. */
export function agencyApis(options: AgencyApisOptions): AgencyApis {
  const { agencies, recorder, now, onRateLimit } = options;
  const profile = options.profile;
  const apis = new Map<number, ClosableTargetApi>();
  const hotels = new Map<number, ClosableHotelApi>();
  return {
    api(index = 0) {
      const agency = agencies[index];
      if (!agency) throw new HarnessError('E_INTERNAL', `no agency ${index}: the profile resolves ${agencies.length}`);
      let a = apis.get(index);
      if (!a) {
        a = createTargetApi({ profile, agency, recorder, now, ...(onRateLimit ? { onRateLimit } : {}) });
        apis.set(index, a);
      }
      return a;
    },
    hotel(index = 0) {
      const agency = agencies[index];
      if (!agency || !profile.hotel_base_url || !agency.hotelApiKey) return undefined;
      let h = hotels.get(index);
      if (!h) {
        h = createHotelApi({ profile, agency, recorder, now });
        hotels.set(index, h);
      }
      return h;
    },
    async close() {
      await Promise.allSettled([...apis.values(), ...hotels.values()].map((a) => a.close()));
    },
  };
}
