import { describe, expect, it } from 'vitest';
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
