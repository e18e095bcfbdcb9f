import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { RequestLog, type RawLoggedRequest } from '../../src/mock/domain/request-log.js';
import { adminRequest, rawRequest, startMock } from '../helpers/mock-client.js';

const entry = (i: number, body: Buffer): RawLoggedRequest => ({
  request_id: `req_${i}`,
  method: 'POST',
  path: '/v1/flights/bookings',
  headers: { 'content-type': 'application/json' },
  body,
  at_ms: i,
  agency_id: null,
  status: 401,
});

describe('request log bounds (issue 11 item 4)', () => {
  test('a large body is kept as a prefix with its byte count and SHA-256; a small one whole', () => {
    const log = new RequestLog({ bodyBytes: 16 });
    const big = Buffer.from('x'.repeat(1000));
    log.add(entry(1, big));
    log.add(entry(2, Buffer.from('{"a":1}')));
    const [first, second] = log.list();
    expect(first).toMatchObject({ body: 'x'.repeat(16), body_bytes: 1000, body_truncated: true, body_sha256: createHash('sha256').update(big).digest('hex') });
    expect(second).toMatchObject({ body: '{"a":1}', body_bytes: 7 });
    expect(second).not.toHaveProperty('body_truncated');
    expect(second).not.toHaveProperty('body_sha256');
  });

  test('the log holds at most its byte budget, dropping the oldest entries first', () => {
    const log = new RequestLog({ bytes: 64 * 1024, bodyBytes: 4096 });
    const body = Buffer.alloc(64 * 1024, 0x41);
    for (let i = 0; i < 1000; i++) log.add(entry(i, body));
    expect(log.size).toBeLessThanOrEqual(64 * 1024);
    const kept = log.list();
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(20);
    expect(kept.at(-1)!.request_id).toBe('req_999');
    expect(kept.map((e) => e.at_ms)).toEqual([...kept.map((e) => e.at_ms)].sort((a, b) => a - b));
  });

  test('the entry cap still holds', () => {
    const log = new RequestLog({ entries: 10 });
    for (let i = 0; i < 5000; i++) log.add(entry(i, Buffer.from('{}')));
    expect(log.list().map((e) => e.at_ms)).toEqual(Array.from({ length: 10 }, (_, k) => 4990 + k));
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.size).toBe(0);
  });

  test('entries read back field for field, in order, whatever their text (non-ASCII, absent fields, over many chunks)', () => {
    const log = new RequestLog({ entries: 3000, bodyBytes: 12 });
    const written: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 5000; i++) {
      const odd = i % 7 === 3;
      const body = Buffer.from(odd ? `{"ville":"Zürich → ${i}"}` : `{"n":${i}}`);
      const headers = {
        authorization: `SVC-HMAC-SHA256 Credential=key_${i % 5}, SignedHeaders=x, Signature=${'a'.repeat(64)}`,
        'x-note': odd ? `été ☃ ${i}` : `${i}`,
        'x-list': ['a', 'b'],
      };
      const e: RawLoggedRequest = {
        request_id: `req_${i}`,
        method: i % 2 ? 'GET' : 'POST',
        path: odd ? `/v1/flights/bookings/bk_é${i}` : `/v1/account?i=${i}`,
        headers,
        body,
        at_ms: 1_000_000 + i,
        agency_id: i % 3 ? `ag_${i % 3}` : null,
        status: 200 + (i % 5),
        ...(i % 4 === 1 ? { injected: `slow-${i}` } : {}),
      };
      log.add(e);
      const truncated = body.length > 12;
      written.push({
        request_id: e.request_id,
        method: e.method,
        path: e.path,
        body: body.subarray(0, 12).toString('utf8'),
        body_bytes: body.length,
        at_ms: e.at_ms,
        agency_id: e.agency_id,
        status: e.status,
        ...(truncated ? { body_truncated: true, body_sha256: createHash('sha256').update(body).digest('hex') } : {}),
        ...(e.injected !== undefined ? { injected: e.injected } : {}),
        headers,
        key_id: `key_${i % 5}`,
      });
    }
    expect(JSON.stringify(log.list())).toBe(JSON.stringify(written.slice(-3000)));
    // The byte count is that of the entries' text: two bytes a UTF-16 code unit, 200 an entry.
    const texts = written.slice(-3000).map((w) => 200 + 2 * (JSON.stringify(w.headers).length + (w.body as string).length + (w.path as string).length));
    expect(log.size).toBe(texts.reduce((a, b) => a + b, 0));
  });

  test('entries written over released chunks read back as written (chunks are reused)', () => {
    const log = new RequestLog({ entries: 700, bodyBytes: 4096 });
    const bodyOf = (i: number): Buffer => Buffer.alloc(1000 + (i % 3000), 0x61 + (i % 26));
    for (let i = 0; i < 12_000; i++) log.add({ ...entry(i, bodyOf(i)), headers: { 'x-i': String(i) } });
    const listed = log.list();
    expect(listed.map((e) => e.request_id)).toEqual(Array.from({ length: 700 }, (_, k) => `req_${11_300 + k}`));
    for (const e of listed) {
      const i = e.at_ms;
      expect(e.headers).toEqual({ 'x-i': String(i) });
      expect(e.body).toBe(bodyOf(i).toString('utf8'));
      expect(e.body_bytes).toBe(bodyOf(i).length);
    }
  });

  test('headers list and count as their JSON, plain or not (quotes, backslash, tab, DEL, Latin-1, absent values, number-like names)', () => {
    const cases: Array<RawLoggedRequest['headers']> = [
      {},
      { host: '127.0.0.1:80', 'x-svc-nonce': 'abc_DEF-123', authorization: 'SVC-HMAC-SHA256 Credential=k, SignedHeaders=a;b, Signature=00' },
      { 'x-quote': 'say "hi"', after: 'x' },
      { 'x-back': 'a\\b' },
      { 'x-tab': 'a\tb', 'x-del': 'a\x7fb' },
      { 'x-latin': 'caf\xe9 \xff' },
      { gone: undefined, kept: 'v', 'also-gone': undefined },
      { gone: undefined },
      { 'x-b': '2', '10': 'ten', 'x-a': '1', '2': 'two' },
      { 'set-cookie': ['a=1', 'b=2'], plain: 'p' },
      { '': 'empty name', 'x-empty': '' },
    ];
    const log = new RequestLog();
    let size = 0;
    for (const [i, headers] of cases.entries()) {
      log.add({ ...entry(i, Buffer.from('{}')), headers });
      size += 200 + 2 * (JSON.stringify(headers).length + 2 + '/v1/flights/bookings'.length);
    }
    expect(log.list().map((e) => JSON.stringify(e.headers))).toEqual(cases.map((h) => JSON.stringify(h)));
    expect(log.size).toBe(size);
  });

  test('over HTTP: 40 unsigned 1 MiB POSTs leave a listing within the budget, each with its hash', async () => {
    const { mock, alpha } = await startMock({ requestLogBytes: 256 * 1024 });
    try {
      const body = Buffer.alloc(1024 * 1024, 0x7b);
      for (let i = 0; i < 40; i++) {
        const res = await rawRequest(`${alpha.origin}/v1/flights/bookings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(res.status).toBe(401);
      }
      const listing = await adminRequest(`${mock.adminUrl}/requests`);
      expect(listing.status).toBe(200);
      expect(listing.raw.length).toBeLessThan(256 * 1024);
      const requests = listing.json.requests as Array<{ body: string; body_bytes: number; body_sha256: string }>;
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests)
        expect(r).toMatchObject({ body: '{'.repeat(4096), body_bytes: 1024 * 1024, body_sha256: createHash('sha256').update(body).digest('hex') });
    } finally {
      await mock.close();
    }
  });
});
