import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { loadProfile } from '../../src/profile/load-profile.js';
import { profileFromUrl } from '../../src/profile/url-profile.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { runCli } from '../helpers/run-cli.js';

/** A port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('--target URL', () => {
  it('stands for the reference defaults at that address, real time, one agency from the environment', () => {
    const p = resolveProfile(profileFromUrl('https://staging.example.com/v1/', { SVC_KEY_ID: 'ak_live', SVC_AGENCY_ID: 'acme' }));
    expect(p.base_url).toBe('https://staging.example.com/v1');
    expect(p.name).toBe('staging.example.com');
    expect(p.clock).toEqual({ control: 'none' });
    expect(p.hotel_base_url).toBeNull();
    expect(p.agencies).toEqual([
      expect.objectContaining({ id: 'acme', key_id: 'ak_live', secret_env: 'SVC_SECRET', webhook_secret_env: 'SVC_WEBHOOK_SECRET' }),
    ]);
  });

  it('says which variables to set, or to pass a profile, when the key id is missing', () => {
    expect(() => profileFromUrl('http://127.0.0.1:9/v1', {})).toThrow(HarnessError);
    expect(() => profileFromUrl('http://127.0.0.1:9/v1', {})).toThrow(
      /set SVC_KEY_ID \(its key id\) and SVC_SECRET \(its signing secret\) in the environment, or pass a profile file/,
    );
  });

  it('names both forms of a target when a profile file does not exist', async () => {
    await expect(loadProfile('profiles/nope.yaml')).rejects.toThrow(
      /no such file \(--target takes a profile file, YAML or JSON, such as profiles\/staging\.yaml, or the http\(s\) URL of the service\)/,
    );
  });

  it('is taken by run: a closed port is unreachable (exit 3), not "no such file"; no key id is exit 2 in one line', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const dir = await mkdtemp(join(tmpdir(), 'svc-url-target-'));
    const reached = await runCli(['run', '--target', url, '--only', 'AU-01', '--report-dir', join(dir, 'reports')], {
      SVC_KEY_ID: 'ak_x',
      SVC_SECRET: 'not-a-real-secret',
    });
    expect(reached.stderr).not.toContain('no such file');
    expect(reached.code, reached.stderr).toBe(3);
    const bare = await runCli(['run', '--target', url, '--only', 'AU-01'], { SVC_KEY_ID: '' });
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim().split('\n')).toHaveLength(1);
    expect(bare.stderr).toContain('set SVC_KEY_ID');
  });
});
