import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/profile/load-profile.js';

describe('profiles/staging.yaml, the example profile of a real-time staging service', () => {
  it('is valid, has no clock control, and takes every secret from the environment', async () => {
    const p = await loadProfile('profiles/staging.yaml');
    expect(p.clock).toEqual({ control: 'none' });
    expect(p.base_url).toMatch(/^https:\/\//);
    expect(p.agencies.length).toBeGreaterThanOrEqual(2);
    for (const a of p.agencies) {
      expect(a.secret_env, a.id).toMatch(/^SVC_STAGING_[A-Z_]+$/);
      expect(a).not.toHaveProperty('secret');
      expect(a).not.toHaveProperty('webhook_secret');
      expect(a).not.toHaveProperty('hotel_api_key');
      expect(a).not.toHaveProperty('hotel_webhook_secret');
    }
  });

  it('is the file the docs run, and its header exports every variable it names', async () => {
    expect(await readFile('docs/load-and-gates.md', 'utf8')).toContain('--target profiles/staging.yaml');
    expect(await readFile('README.md', 'utf8')).toContain('cp profiles/staging.yaml');
    const text = await readFile('profiles/staging.yaml', 'utf8');
    const named = [...text.matchAll(/_env: (SVC_[A-Z_]+)/g)].map((m) => m[1]!);
    const exported = new Set([...text.matchAll(/(SVC_[A-Z_]+)=\.\.\./g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !exported.has(n))).toEqual([]);
  });
});
