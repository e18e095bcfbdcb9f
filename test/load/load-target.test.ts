import { describe, expect, it } from 'vitest';
import { createTargetApi } from '../../src/api/index.js';
import { createMock } from '../../src/mock/index.js';
import { profileLoadTarget } from '../../src/load/load-target.js';
import { loadAgencies } from '../../src/load/run-load.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';

const limits = { read: 5, write: 1 };
const profile: Profile = {
  ...DEFAULT_PROFILE,
  base_url: 'http://127.0.0.1:9/v1',
  agencies: [
    { id: 'a1', key_id: 'k1', secret: 's1', limits },
    // Another shard's agency whose secret this process was never given.
    { id: 'a2', key_id: 'k2', secret_env: 'SVC_HARNESS_TEST_UNSET_SECRET', limits },
    { id: 'a3', key_id: 'k3', secret: 's3', limits },
  ],
};

describe('profileLoadTarget with a shard', () => {
  it("resolves only the agencies of its shard: another shard's secret need not be set", async () => {
    const target = await profileLoadTarget(profile, {}, { shard: { index: 1, count: 2 } });
    expect(target.agencies.map((a) => a.id)).toEqual(['a1', 'a3']);
    // The list is the shard's already: the load takes it as it is, not a shard of the shard.
    expect(loadAgencies(target, { index: 1, count: 2 }).map((a) => a.id)).toEqual(['a1', 'a3']);
  });

  it('without a shard needs every secret, naming the missing one', async () => {
    await expect(profileLoadTarget(profile, {})).rejects.toThrow(/SVC_HARNESS_TEST_UNSET_SECRET/);
  });
});

describe('profileLoadTarget of a mock whose clock it may move', () => {
  it("moves the clock alone, and never as a shard: the other shards' 429s are judged on the same clock meanwhile", async () => {
    const mock = await createMock({ port: 0, hotelPort: 0, admin: true, adminPort: 0 });
    try {
      const moved: Profile = {
        ...profile,
        base_url: mock.baseUrl,
        clock: { control: 'mock-admin', admin_url: mock.adminUrl! },
        agencies: [profile.agencies[0]!],
      };
      const alone = await profileLoadTarget(moved, {});
      expect(alone.advance).toBeDefined();
      await alone.close?.();
      // An earlier run left the clock a minute ahead: the shard reads the target's clock as it finds it.
      await mock.clock.advance(60_000);
      const shard = await profileLoadTarget({ ...moved, agencies: profile.agencies.filter((a) => a.id !== 'a2') }, {}, { shard: { index: 1, count: 2 } });
      expect(shard.advance).toBeUndefined();
      expect(shard.notes).toEqual([
        "clock control: shard 1/2 shares the target's clock with the other shards, and does not move it: the wallets after the load are read in real time",
      ]);
      expect(Math.abs(shard.now() - mock.clock.now())).toBeLessThan(1_000);
    } finally {
      await mock.close();
    }
  });

  it('starts past what an earlier run left in the windows: a full read bucket answers the account read at once, with no wait in real time', async () => {
    const mock = await createMock({ port: 0, hotelPort: 0, admin: true, adminPort: 0 });
    try {
      const own = mock.agencies[0]!;
      const agency = { id: own.agency_id, key_id: own.key_id, secret: own.secret };
      const target: Profile = { ...DEFAULT_PROFILE, base_url: mock.baseUrl, clock: { control: 'mock-admin', admin_url: mock.adminUrl! }, agencies: [agency] };
      // The previous load of a CI job: the agency's read bucket is full when this one starts.
      const api = createTargetApi({ profile: target, agency: { id: agency.id, keyId: agency.key_id, secret: agency.secret } });
      const statuses: number[] = [];
      for (let i = 0; i <= own.limits.read; i++) statuses.push((await api.account()).status);
      await api.close();
      expect(statuses.at(-1)).toBe(429);
      const waits: number[] = [];
      const before = mock.clock.now();
      const loadTarget = await profileLoadTarget(target, {}, { onWait: (w) => waits.push(w.ms) });
      try {
        expect(waits).toEqual([]);
        // Its limits were read from the account, admitted at once on a clock a window ahead.
        expect(loadTarget.agencies[0]!.limits).toEqual({ read: own.limits.read, write: own.limits.write });
        expect(mock.clock.now() - before).toBeGreaterThanOrEqual(DEFAULT_PROFILE.limits.window_s * 1000);
      } finally {
        await loadTarget.close?.();
      }
    } finally {
      await mock.close();
    }
  });
});
