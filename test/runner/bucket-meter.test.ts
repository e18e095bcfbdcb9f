import { describe, expect, it } from 'vitest';
import { MemoryRecorder, type Exchange } from '../../src/client/exchange.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { bucketMeter } from '../../src/runner/bucket-meter.js';

const profile = resolveProfile({
  base_url: 'http://127.0.0.1:1/v1',
  hotel_base_url: null,
  clock: { control: 'none' },
  agencies: [{ id: 'a', key_id: 'ka', secret: 's' }],
});
const agencies = [
  { id: 'a', keyId: 'ka', secret: 's' },
  { id: 'b', keyId: 'kb', secret: 's' },
];
let id = 0;
const x = (method: string, path: string, keyId?: string): Exchange => ({
  id: `x-${++id}`,
  request: {
    method,
    url: `http://127.0.0.1:1/v1${path}`,
    headers: keyId ? { authorization: `SVC-HMAC-SHA256 Credential=${keyId}, SignedHeaders=x, Signature=${'0'.repeat(64)}` } : {},
  },
  startedAt: 0,
  durationMs: 1,
});

describe('bucketMeter', () => {
  it('counts each signed request in its agency bucket as the reference does, from a mark on', () => {
    let now = 1000;
    const inner = new MemoryRecorder();
    const meter = bucketMeter(inner, profile, agencies, () => now);
    meter.recorder.record(x('GET', '/account', 'ka'));
    const mark = meter.mark(['0:read', '0:write', '1:read', '1:write']);
    now = 2000;
    meter.recorder.record(x('GET', '/account', 'ka'));
    meter.recorder.record(x('POST', '/flights/bookings', 'kb'));
    now = 3000;
    // a search is a read, and marks the write bucket too (a service may count it there)
    meter.recorder.record(x('POST', '/flights/search', 'kb'));
    // unsigned requests and unknown keys count nowhere
    meter.recorder.record(x('GET', '/account'));
    meter.recorder.record(x('GET', '/account', 'kz'));
    expect(inner.exchanges).toHaveLength(6);
    const used = meter.usedSince(mark, ['0:read', '0:write', '1:read', '1:write']);
    expect(Object.fromEntries(used)).toEqual({
      '0:read': { n: 1, lastAt: 2000 },
      '1:read': { n: 1, lastAt: 3000 },
      // the booking counts; the search makes the bucket rest without counting in its budget
      '1:write': { n: 1, lastAt: 3000 },
    });
  });

  it('counts a search only in the bucket its answer names', () => {
    const meter = bucketMeter(new MemoryRecorder(), profile, agencies, () => 1000);
    const answered = (keyId: string, resource: string): Exchange => ({
      ...x('POST', '/flights/search', keyId),
      response: { status: 200, headers: { 'x-ratelimit-resource': resource }, body: '{}' },
    });
    const mark = meter.mark(['0:read', '0:write', '1:read', '1:write']);
    meter.recorder.record(answered('ka', 'read'));
    meter.recorder.record(answered('kb', 'write'));
    expect(Object.fromEntries(meter.usedSince(mark, ['0:read', '0:write', '1:read', '1:write']))).toEqual({
      '0:read': { n: 1, lastAt: 1000 },
      '1:write': { n: 1, lastAt: 1000 },
    });
    expect([meter.lastRequestAt('0:write'), meter.lastRequestAt('1:read')]).toEqual([undefined, undefined]);
  });

  it('says when a bucket last got a request, and forgets it once the target is reset', () => {
    let now = 1000;
    const meter = bucketMeter(new MemoryRecorder(), profile, agencies, () => now);
    expect(meter.lastRequestAt('0:write')).toBeUndefined();
    meter.recorder.record(x('POST', '/flights/bookings', 'ka'));
    now = 1500;
    meter.recorder.record(x('POST', '/flights/search', 'ka'));
    expect(meter.lastRequestAt('0:write')).toBe(1500);
    expect(meter.lastRequestAt('0:read')).toBe(1500);
    expect(meter.lastRequestAt('1:write')).toBeUndefined();
    now = 2000;
    meter.emptied();
    expect(meter.lastRequestAt('0:write')).toBeUndefined();
    now = 2500;
    meter.recorder.record(x('GET', '/account', 'ka'));
    expect(meter.lastRequestAt('0:read')).toBe(2500);
    expect(meter.lastRequestAt('0:write')).toBeUndefined();
  });
});
