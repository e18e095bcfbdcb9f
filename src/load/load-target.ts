import { createTargetApi } from '../api/index.js';
import { getArray, getField, getNumber, getString } from '../api/fields.js';
import { rateLimitRetry } from '../api/rate-limit-retry.js';
import { withRetryPolicy } from '../client/retry-scope.js';
import { withAbortSignal } from '../client/abort-scope.js';
import { AdminClockDriver } from '../clock/admin-clock-driver.js';
import { createAdminClient } from '../clock/admin-client.js';
import { clockBoundMs } from '../clock/clock-bound.js';
import { ClockRestorer } from '../clock/clock-restorer.js';
import { announcedSleep, type OnLoadWait } from './announced-wait.js';
import { HarnessError, isHarnessError } from '../errors/harness-error.js';
import type { RunningMock } from '../mock/index.js';
import { DEFAULT_PROFILE } from '../profile/defaults.js';
import { resolveAgencies } from '../profile/resolve-secrets.js';
import type { Profile } from '../profile/index.js';
import type { LoadAgency } from './generate/load-agency.js';
import { shardAgencies, type LoadTarget } from './run-load.js';

/**
 * The embedded mock as a load target: the reference profile at the mock's
 * address, its agencies (only the generated `agency-load-*` ones when there
 * are any), its clock, which the harness may move after the load.
 */
export function mockLoadTarget(mock: RunningMock, opts: { onlyGenerated?: boolean } = {}): LoadTarget {
  const generated = mock.agencies.filter((a) => a.agency_id.startsWith('agency-load-'));
  const chosen = (opts.onlyGenerated ?? generated.length > 0) ? generated : mock.agencies;
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    agencies: chosen.map((a) => ({ id: a.agency_id, key_id: a.key_id, secret: a.secret, limits: { ...a.limits } })),
  };
  return {
    profile,
    agencies: chosen.map((a) => ({
      id: a.agency_id,
      keyId: a.key_id,
      secret: a.secret,
      limits: { read: a.limits.read, write: a.limits.write },
      open: [...a.products],
    })),
    embedded: true,
    now: () => mock.clock.now(),
    advance: (ms) => mock.advance(ms),
  };
}

/**
 * A profiled service as a load target: the agencies of this process (its
 * shard's, or every agency of the profile) must have their secrets; limits
 * come from the profile or, when absent, from each agency's account response
 * (that read is a request like any other: a 429 is waited out, announced).
 * Another shard's agencies are neither resolved nor read. With clock control
 * (`clock: {control: mock-admin}`) the load reads the mock's clock, starts a
 * window after what earlier runs left in the target's windows (it moves the
 * clock by one first), waits out a 429 on the account by moving the clock,
 * moves it after the load instead of waiting in real time, and puts it back
 * to real time when the load ends (`close`).
 */
export async function profileLoadTarget(
  profile: Profile,
  env: NodeJS.ProcessEnv = process.env,
  o: { shard?: { index: number; count: number } | undefined; onWait?: OnLoadWait | undefined; signal?: AbortSignal | undefined } = {},
): Promise<LoadTarget> {
  const mine = { agencies: shardAgencies(profile.agencies, o.shard) };
  const resolved = resolveAgencies(mine, env, { agencies: mine.agencies.length });
  const clock = await targetClock(profile, o);
  const windowMs = profile.limits.window_s * 1000;
  const agencies: LoadAgency[] = [];
  try {
    // Requests of an earlier run (the previous load of a CI job, its clock put back to real time) still fill the windows: moved past them, every load starts from empty buckets.
    if (clock.advance) await clock.advance(windowMs);
    for (const a of resolved) {
      let limits = a.limits;
      let open: string[] | undefined;
      if (!limits) {
        const api = createTargetApi({ profile, agency: a, now: clock.now });
        // At most a window for the account (a Retry-After beyond it is the answer); a stop ends the wait and the read at once.
        const policy = rateLimitRetry(profile, {
          wait: (ms) =>
            clock.advance
              ? clock.advance(ms)
              : announcedSleep(ms, `the account of ${a.id} answered 429: waiting out its Retry-After to read its limits`, o.onWait, o.signal),
          maxAttempts: 4,
          marginMs: 250,
          budgetMs: windowMs + 250,
        });
        try {
          const readAccount = () => withRetryPolicy(policy, () => api.account());
          const res = await (o.signal ? withAbortSignal(o.signal, readAccount) : readAccount());
          const read = getNumber(res.json, profile.fields.account_read_limit);
          const write = getNumber(res.json, profile.fields.account_write_limit);
          if (read === undefined || write === undefined) {
            throw new HarnessError(
              'E_PROFILE_INVALID',
              `limits of agency ${a.id} are unknown: set agencies[].limits in the profile (the account answered ${res.status} without them)`,
            );
          }
          limits = { read, write };
          open = openProducts(profile, res.json);
        } finally {
          await api.close();
        }
      }
      agencies.push({ id: a.id, keyId: a.keyId, secret: a.secret, limits, ...(open ? { open } : {}) });
    }
  } catch (err) {
    await clock.close?.();
    throw err;
  }
  return { profile, agencies, embedded: false, ...clock, ...(o.shard ? { sharded: true } : {}) };
}

/** The target's clock as a load sees it: real time, or the mock's through its admin API (moved only by a load that is not one of several shards). */
async function targetClock(
  profile: Profile,
  o: { shard?: { index: number; count: number } | undefined; signal?: AbortSignal | undefined },
): Promise<Pick<LoadTarget, 'now' | 'advance' | 'close' | 'notes'>> {
  if (profile.clock.control !== 'mock-admin') return { now: Date.now };
  const restorer = new ClockRestorer(createAdminClient(profile.clock.admin_url), o.signal);
  let driver: AdminClockDriver;
  try {
    driver = await AdminClockDriver.connect(restorer.admin, { maxWaitMs: clockBoundMs(profile), signal: o.signal });
  } catch (err) {
    // The load itself needs no clock control: without the admin API it waits in real time, and says so.
    if (!isHarnessError(err) || (err.code !== 'E_TARGET_UNREACHABLE' && err.code !== 'E_TRANSPORT')) throw err;
    return {
      now: Date.now,
      notes: [
        `clock control: the mock admin API at ${profile.clock.admin_url} did not answer (${err.message}): the wallets after the load are read in real time`,
      ],
    };
  }
  if (o.shard && o.shard.count > 1) {
    // The other shards load the same target meanwhile: moving its clock would move theirs, and their 429s' Retry-After would read wrong.
    const note = `clock control: shard ${o.shard.index}/${o.shard.count} shares the target's clock with the other shards, and does not move it: the wallets after the load are read in real time`;
    return { now: () => driver.now(), notes: [note] };
  }
  return { now: () => driver.now(), advance: (ms) => driver.wait(ms), close: () => restorer.restore() };
}

/** The products an account answer lists as open, or undefined when it lists none the profile can read. */
function openProducts(profile: Profile, account: unknown): string[] | undefined {
  const f = profile.fields;
  const items = getArray(account, f.account_products);
  if (items.length === 0) return undefined;
  return items.filter((item) => getField(item, f.account_product_enabled) === true).flatMap((item) => getString(item, f.account_product_name) ?? []);
}
