import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHarnessError, type HarnessError } from '../../src/errors/harness-error.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { loadProfile } from '../../src/profile/load-profile.js';
import { profileProblems, resolveProfile } from '../../src/profile/validate-profile.js';
import { deepMerge } from '../../src/profile/_internal/deep-merge.js';

function problemsOf(input: unknown): string[] {
  return profileProblems(deepMerge(DEFAULT_PROFILE, input));
}

function thrown(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (err) {
    if (isHarnessError(err)) return err;
    throw err;
  }
  throw new Error('expected a HarnessError');
}

describe('profile validation', () => {
  it('accepts the reference profile as it is and freezes the result', () => {
    expect(profileProblems(DEFAULT_PROFILE)).toEqual([]);
    const p = resolveProfile({});
    expect(p.limits.window_s).toBe(60);
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.limits)).toBe(true);
  });

  const cases: Array<[string, unknown, string]> = [
    ['a string where an integer belongs', { limits: { window_s: '60s' } }, 'limits.window_s must be an integer from 1 to 86400 s, got "60s"'],
    ['zero where a positive integer belongs', { quotes: { lifetime_s: 0 } }, 'quotes.lifetime_s must be an integer from 1 to 86400 s, got 0'],
    ['a fraction where an integer belongs', { request_timeout_ms: 1.5 }, 'request_timeout_ms must be an integer from 1 to 600000 ms, got 1.5'],
    ['a base url that is no URL', { base_url: 'localhost:8480' }, 'base_url must be an http(s) URL, got "localhost:8480"'],
    [
      'a wrong HTTP method',
      { operations: { account: { method: 'FETCH', path: '/account' } } },
      'operations.account.method must be one of "GET", "POST", "PUT", "PATCH", "DELETE", got "FETCH"',
    ],
    [
      'a path without its slash',
      { operations: { search: { method: 'POST', path: '{product}/search' } } },
      'operations.search.path must be a path starting with "/", got "{product}/search"',
    ],
    ['an upper-case header name', { headers: { retry_after: 'Retry-After' } }, 'headers.retry_after must be a lower-case header name, got "Retry-After"'],
    [
      'an out-of-range status',
      { errors: { quote_expired: { status: 1000, code: 'QUOTE_EXPIRED' } } },
      'errors.quote_expired.status must be an HTTP status (100 to 599), got 1000',
    ],
    ['an unknown clock control', { clock: { control: 'ntp' } }, 'clock.control must be one of "mock-admin", "none", got "ntp"'],
    ['a mock-admin clock without its url', { clock: { control: 'mock-admin' } }, 'clock.admin_url is required (an http(s) URL)'],
    ['an empty agency list', { agencies: [] }, 'agencies must be a list of at least 1 item, got a list'],
    ['an agency without a secret', { agencies: [{ id: 'a', key_id: 'k' }] }, 'agencies[0].secret_env is required'],
    [
      'a secret given twice',
      { agencies: [{ id: 'a', key_id: 'k', secret: 's3cr3t-value', secret_env: 'X' }] },
      'agencies[0]: give secret or secret_env, not both',
    ],
    ['a bad env name', { agencies: [{ id: 'a', key_id: 'k', secret_env: 'MY-SECRET' }] }, 'agencies[0].secret_env must be an environment variable name'],
    ['a list where an object belongs', { limits: [] }, 'limits must be an object, got a list'],
    ['a typo in a key', { limits: { windw_s: 60 } }, 'limits.windw_s is not a known field (did you mean limits.window_s?)'],
    ['an unknown top-level key', { colour: 'blue' }, 'colour is not a known field'],
    ['a product without criteria', { products: ['flights', 'hotels'] }, 'search_criteria must hold criteria for every product, missing "hotels"'],
    ['a null where null is not allowed', { name: null }, 'name must be a non-empty string, got null'],
    ['a wrong nullable', { hotel_base_url: 42 }, 'hotel_base_url must be an http(s) URL or null, got 42'],
    ['a port out of range', { receiver: { port: 70000 } }, 'receiver.port must be a port number (0 to 65535), got 70000'],
  ];

  it.each(cases)('%s gives its own message', (_what, input, message) => {
    const problems = problemsOf(input);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('lists every wrong field in one E_PROFILE_INVALID', () => {
    const err = thrown(() =>
      resolveProfile({ limits: { window_s: '60s', max_body_bytes: -1 }, base_url: 'nope', headers: { nonce: 'X-Nonce' }, typo_key: 1 }, 'target.yaml'),
    );
    expect(err.code).toBe('E_PROFILE_INVALID');
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/^target\.yaml is invalid \(5 problems\): /);
    for (const m of [
      'limits.window_s must be an integer from 1 to 86400 s, got "60s"',
      'limits.max_body_bytes must be an integer from 1 to 67108864 bytes, got -1',
      'base_url must be an http(s) URL, got "nope"',
      'headers.nonce must be a lower-case header name, got "X-Nonce"',
      'typo_key is not a known field',
    ]) {
      expect(err.message).toContain(m);
    }
    expect(err.message).not.toContain('\n');
  });

  it('merges over the defaults: objects by key, arrays and body templates replace', () => {
    const p = resolveProfile({
      limits: { window_s: 30 },
      products: ['flights'],
      booking_body: { token: '{quote_token}' },
      search_criteria: { flights: { from: 'LIS' } },
      clock: { control: 'none' },
    });
    expect(p.limits).toEqual({ ...DEFAULT_PROFILE.limits, window_s: 30 });
    expect(p.products).toEqual(['flights']);
    expect(p.booking_body).toEqual({ token: '{quote_token}' });
    expect(p.search_criteria.flights).toEqual({ from: 'LIS' });
    expect(p.search_criteria.cars).toEqual(DEFAULT_PROFILE.search_criteria.cars);
    expect(p.clock).toEqual({ control: 'none' });
    expect(DEFAULT_PROFILE.limits.window_s).toBe(60);
  });

  it('rejects a file that holds no object', () => {
    expect(thrown(() => resolveProfile(['a'], 'x.yaml')).message).toContain('x.yaml is invalid: it must hold an object of settings, got a list');
  });
});

describe('loadProfile', () => {
  async function file(name: string, text: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-profile-'));
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('reads YAML', async () => {
    const path = await file('t.yaml', 'name: staging\nbase_url: https://api.example.test/v1\nclock:\n  control: none\nlimits:\n  window_s: 30\n');
    const p = await loadProfile(path);
    expect(p).toMatchObject({ name: 'staging', base_url: 'https://api.example.test/v1', clock: { control: 'none' } });
    expect(p.limits.window_s).toBe(30);
  });

  it('reads JSON', async () => {
    const path = await file('t.json', JSON.stringify({ name: 'json-target', quotes: { lifetime_s: 60 } }));
    const p = await loadProfile(path);
    expect(p.name).toBe('json-target');
    expect(p.quotes.lifetime_s).toBe(60);
  });

  it('names the file and the field in a validation error', async () => {
    const path = await file('bad.yaml', 'limits:\n  window_s: 60s\n');
    await expect(loadProfile(path)).rejects.toMatchObject({
      code: 'E_PROFILE_INVALID',
      message: expect.stringContaining(`${path} is invalid (1 problem): limits.window_s must be an integer from 1 to 86400 s, got "60s"`),
    });
  });

  it('reports unparsable text and missing files in one line', async () => {
    const path = await file('broken.yaml', 'limits: {window_s: 60\n');
    const err = (await loadProfile(path).then(
      () => undefined,
      (e: unknown) => e as HarnessError,
    ))!;
    expect(err.code).toBe('E_FILE_UNREADABLE');
    expect(err.message).not.toContain('\n');
    const json = await file('broken.json', '{"name": ');
    await expect(loadProfile(json)).rejects.toMatchObject({ code: 'E_FILE_UNREADABLE' });
    await expect(loadProfile(join(tmpdir(), 'no-such-profile.yaml'))).rejects.toMatchObject({
      code: 'E_FILE_UNREADABLE',
      message: expect.stringContaining('no such file'),
    });
  });

  it('never echoes the value of a secret field, only its name and the expected type', async () => {
    const path = await file(
      'secrets.yaml',
      [
        'agencies:',
        '  - id: agency-alpha',
        '    key_id: 987654321',
        '    secret: 123456789',
        '    webhook_secret: [whsec-1111-2222]',
        '    hotel_api_key: 55555555',
        '    hotel_webhook_secret: true',
        '    secret_env: 77777777',
        '',
      ].join('\n'),
    );
    const err = (await loadProfile(path).then(
      () => undefined,
      (e: unknown) => e as HarnessError,
    ))!;
    expect(err.code).toBe('E_PROFILE_INVALID');
    for (const value of ['987654321', '123456789', 'whsec-1111-2222', '55555555', '77777777']) expect(err.message).not.toContain(value);
    expect(err.message).toContain('agencies[0].secret must be a non-empty string, got an integer');
    expect(err.message).toContain('agencies[0].webhook_secret must be a non-empty string, got a list');
    expect(err.message).toContain('agencies[0].hotel_webhook_secret must be a non-empty string, got a boolean');
    expect(err.message).toMatch(/agencies\[0\]\.secret_env must be .*, got an integer/);
  });

  it('never echoes the profile line a parse error points at', async () => {
    for (const [name, text] of [
      ['broken.yaml', 'agencies:\n  - id: a\n    secret: "s3cr3t-value-42\n'],
      ['broken.json', '{"agencies": [{"secret": s3cr3t-value-42}]}'],
    ] as const) {
      const err = (await loadProfile(await file(name, text)).then(
        () => undefined,
        (e: unknown) => e as HarnessError,
      ))!;
      expect(err.code).toBe('E_FILE_UNREADABLE');
      expect(err.message).not.toContain('s3cr3t');
    }
  });
});
