import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { loadProfile } from '../../src/profile/load-profile.js';

describe('profiles/reference.yaml', () => {
  it('is valid and says exactly what the built-in defaults say', async () => {
    const p = await loadProfile('profiles/reference.yaml');
    expect(p).toEqual(DEFAULT_PROFILE);
  });
});
