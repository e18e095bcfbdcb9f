import { describe, expect, it } from 'vitest';
import { buildStringToSign, computeSignature, parseAuthorization } from '../../src/protocol/request-signature.js';
import { NoncePool, SignedTemplate } from '../../src/load/generate/signed-template.js';

function parse(buf: Buffer): { line: string; headers: Record<string, string>; body: string } {
  const text = buf.toString('latin1');
  const [head, body] = text.split('\r\n\r\n') as [string, string];
  const [line, ...rest] = head.split('\r\n');
  return { line: line!, headers: Object.fromEntries(rest.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)])), body };
}

describe('SignedTemplate', () => {
  it('patches a fresh nonce, the timestamp and a valid signature into the same request bytes', () => {
    let now = 1_790_000_000_500;
    const body = JSON.stringify({ criteria: { origin: 'LIS' } });
    const t = new SignedTemplate(
      {
        method: 'POST',
        path: '/v1/flights/search',
        body,
        host: '127.0.0.1:1',
        keyId: 'ak_x',
        secret: 's3cret',
        headers: { 'content-type': 'application/json' },
      },
      () => now,
    );
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      now += 700;
      const r = parse(Buffer.from(t.next()));
      expect(r.line).toBe('POST /v1/flights/search HTTP/1.1');
      expect(r.body).toBe(body);
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(body)));
      const ts = r.headers['x-svc-timestamp']!;
      const nonce = r.headers['x-svc-nonce']!;
      expect(ts).toBe(String(Math.floor(now / 1000)));
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(seen.has(nonce)).toBe(false);
      seen.add(nonce);
      const auth = parseAuthorization(r.headers.authorization);
      expect(auth?.keyId).toBe('ak_x');
      const sts = buildStringToSign({ method: 'POST', path: '/v1/flights/search', query: '', body, timestamp: Number(ts), nonce });
      expect(auth?.signature).toBe(computeSignature('s3cret', sts));
    }
  });

  it('hands out distinct nonces across pool refills', () => {
    const pool = new NoncePool();
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) seen.add(pool.next());
    expect(seen.size).toBe(10_000);
  });
});
