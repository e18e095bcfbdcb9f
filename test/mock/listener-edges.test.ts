import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { startMock, type MockClient } from '../helpers/mock-client.js';

let mock: RunningMock;
let alpha: MockClient;
beforeAll(async () => {
  ({ mock, alpha } = await startMock({ headersTimeoutMs: 300, requestTimeoutMs: 600 }));
});
afterAll(async () => {
  await mock.close();
});

type Listener = 'service' | 'hotel' | 'admin';
const port = (l: Listener): number => Number(new URL(l === 'service' ? mock.baseUrl : l === 'hotel' ? mock.hotelBaseUrl : mock.adminUrl!).port);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  json: { error: { code: string; request_id: string } };
  /** Real ms from connecting to the end of the answer. */
  ms: number;
}

/** Writes `chunks` (a string is sent at once; a number waits that many ms) on a fresh connection and reads until the server closes it. */
function exchange(l: Listener, ...chunks: Array<string | number>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port(l), '127.0.0.1');
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let json: RawAnswer['json'];
      try {
        json = JSON.parse(body) as RawAnswer['json'];
      } catch {
        reject(new Error(`not JSON after ${statusLine}: ${JSON.stringify(body)} (headers ${JSON.stringify(headers)})`));
        return;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, json, ms: Date.now() - started });
    });
    void (async () => {
      for (const c of chunks) {
        if (typeof c === 'number') await new Promise((r) => setTimeout(r, c));
        else if (!socket.destroyed) socket.write(c);
      }
    })();
  });
}

function expectEnvelope(a: RawAnswer, status: number, code: string): void {
  expect({ status: a.status, code: a.json.error.code }).toEqual({ status, code });
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  expect(a.headers['x-request-id']).toMatch(/^req_/);
  expect(a.json.error.request_id).toBe(a.headers['x-request-id']);
}

const LISTENERS: Listener[] = ['service', 'hotel', 'admin'];
const admin = (l: Listener): string => (l === 'admin' ? 'X-SVC-Admin: 1\r\n' : '');
const pathOf = (l: Listener): string => (l === 'service' ? '/v1/account' : l === 'hotel' ? '/hotels/v1/availability' : '/__admin/health');

describe('every listener answers in the envelope what node or fastify answered on its own (issue 11 item 13)', () => {
  test.each(LISTENERS)('%s: an HTTP/1.1 request without Host is 400 BAD_REQUEST in the envelope', async (l) => {
    expectEnvelope(await exchange(l, `GET ${pathOf(l)} HTTP/1.1\r\n${admin(l)}Connection: close\r\n\r\n`), 400, 'BAD_REQUEST');
  });

  test.each(LISTENERS)('%s: a header over 64 KiB is 431 HEADERS_TOO_LARGE in the envelope', async (l) => {
    expectEnvelope(await exchange(l, `GET ${pathOf(l)} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(70 * 1024)}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
  });

  test('service: CONNECT is answered (unsigned: 401), not dropped', async () => {
    expectEnvelope(await exchange('service', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 401, 'UNAUTHENTICATED');
  });

  test('hotel: CONNECT without a key is 401; admin: CONNECT without the header is 403', async () => {
    expectEnvelope(await exchange('hotel', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 401, 'UNAUTHENTICATED');
    expectEnvelope(await exchange('admin', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 403, 'ADMIN_HEADER_REQUIRED');
  });

  test('hotel: %ZZ in a path is judged like any path: 401 without a key, 404 with one', async () => {
    expectEnvelope(await exchange('hotel', 'GET /hotels/v1/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 401, 'UNAUTHENTICATED');
    const key = alpha.agency.hotel_api_key;
    expectEnvelope(await exchange('hotel', `GET /hotels/v1/%ZZ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`), 404, 'NOT_FOUND');
    expectEnvelope(await exchange('hotel', `GET /hotels/v1/%C3%28 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`), 404, 'NOT_FOUND');
  });

  test('hotel: a 20 KiB header is judged like any request (401 without a key)', async () => {
    expectEnvelope(
      await exchange('hotel', `GET /hotels/v1/x HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20 * 1024)}\r\nConnection: close\r\n\r\n`),
      401,
      'UNAUTHENTICATED',
    );
  });

  test('service: authentication is judged first, before a malformed Content-Type or an undecodable path', async () => {
    expectEnvelope(
      await exchange('service', 'POST /v1/flights/search HTTP/1.1\r\nHost: x\r\nContent-Type: ???\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'),
      401,
      'UNAUTHENTICATED',
    );
    expectEnvelope(await exchange('service', 'GET /v1/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 401, 'UNAUTHENTICATED');
    // Signed, the same requests pass authentication and are judged on: the path is as sent, the type is not the service's business.
    const search = await alpha.send('POST', '/v1/flights/search', {
      body: { criteria: { origin: 'LHR', destination: 'JFK', departure_date: '2026-12-01', adults: 1 } },
      headers: { 'content-type': '???' },
    });
    expect(search.status).toBe(200);
    const odd = await alpha.get('/v1/%ZZ');
    expect({ status: odd.status, code: odd.json.error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('slow clients are cut off (issue 11 item 8)', () => {
  test.each(LISTENERS)('%s: headers that trickle in are answered 408 REQUEST_TIMEOUT once the headers timeout passes', async (l) => {
    const a = await exchange(
      l,
      `GET ${pathOf(l)} HTTP/1.1\r\n`,
      100,
      'Host: x\r\n',
      100,
      'X-A: 1\r\n',
      100,
      'X-B: 1\r\n',
      100,
      'X-C: 1\r\n',
      100,
      'X-D: 1\r\n',
      2000,
      '\r\n',
    );
    expectEnvelope(a, 408, 'REQUEST_TIMEOUT');
    expect(a.ms).toBeLessThan(1500);
  });

  test('service: a connection that sends nothing is answered 408 and closed', async () => {
    const a = await exchange('service');
    expectEnvelope(a, 408, 'REQUEST_TIMEOUT');
    expect(a.ms).toBeLessThan(1500);
  });

  test('service: a body that trickles in is answered 408 once the request timeout passes', async () => {
    const chunks: Array<string | number> = ['POST /v1/flights/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n'];
    for (let i = 0; i < 20; i++) chunks.push(100, ' ');
    const a = await exchange('service', ...chunks);
    expectEnvelope(a, 408, 'REQUEST_TIMEOUT');
    expect(a.ms).toBeLessThan(1800);
  });
});
