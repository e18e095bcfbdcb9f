import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../src/harness.js';
import { loadProfile } from '../../src/profile/load-profile.js';
import { resolveAgencies } from '../../src/profile/resolve-secrets.js';

const page = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');
const PROFILE = 'profiles/reference.yaml';

/** The variables an E_SECRET_MISSING message names. */
function named(err: unknown): string[] {
  expect((err as { code?: string }).code).toBe('E_SECRET_MISSING');
  return [...(err as Error).message.matchAll(/\b(SVC_[A-Z0-9_]+)\b/g)].map((m) => m[1]!);
}

describe('secrets of the reference profile', () => {
  it('a full run with none set names every one it needs in one message', async () => {
    const harness = createHarness({ targetFile: PROFILE, env: {} });
    const err = await harness.run().then(
      () => undefined,
      (e: unknown) => e,
    );
    await harness.close();
    expect(named(err).sort()).toEqual([
      'SVC_AGENCY_ALPHA_HOTEL_API_KEY',
      'SVC_AGENCY_ALPHA_HOTEL_WEBHOOK_SECRET',
      'SVC_AGENCY_ALPHA_SECRET',
      'SVC_AGENCY_ALPHA_WEBHOOK_SECRET',
      'SVC_AGENCY_BETA_SECRET',
    ]);
  });

  it('are exactly the export line of docs/profile.md: what `run` and `load` need together', async () => {
    const profile = await loadProfile(PROFILE);
    const harness = createHarness({ targetFile: PROFILE, env: {} });
    const forRun = named(
      await harness.run().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    await harness.close();
    let forLoad: string[] = [];
    try {
      resolveAgencies(profile, {}, { agencies: profile.agencies.length });
    } catch (err) {
      forLoad = named(err);
    }
    const line = /^export (SVC_AGENCY_.*)$/m.exec(page)?.[1] ?? '';
    const exported = [...line.matchAll(/(SVC_[A-Z0-9_]+)=/g)].map((m) => m[1]!);
    expect(exported.sort()).toEqual([...new Set([...forRun, ...forLoad])].sort());
  });
});
