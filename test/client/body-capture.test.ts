import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyEvidence, EVIDENCE_BODY_BYTES } from '../../src/client/body-capture.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { ExchangeClient } from '../../src/client/exchange-client.js';
import { HarnessError } from '../../src/errors/harness-error.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const pattern = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => 97 + (i % 26)));

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function answering(body: Buffer): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('bounded body evidence', () => {
  it('keeps a body of the cap whole, and cuts one byte more with its byte count and SHA-256', () => {
    const exact = pattern(EVIDENCE_BODY_BYTES);
    expect(bodyEvidence(exact)).toEqual({ body: exact.toString('utf8'), kept: exact });
    const over = pattern(EVIDENCE_BODY_BYTES + 1);
    const ev = bodyEvidence(over);
    expect(ev).toMatchObject({ bytes: EVIDENCE_BODY_BYTES + 1, sha256: sha(over), truncated: true });
    expect(ev.kept.equals(over.subarray(0, EVIDENCE_BODY_BYTES))).toBe(true);
    expect(ev.body).toHaveLength(EVIDENCE_BODY_BYTES);
  });

  it('the client judges with the whole body but records a prefix, its size and hash', async () => {
    const whole = pattern(EVIDENCE_BODY_BYTES * 3 + 7);
    const recorder = new MemoryRecorder();
    const client = new ExchangeClient({ baseUrl: await answering(whole), recorder });
    try {
      const res = await client.send({ method: 'GET', path: '/v1/wallet/rates', query: '', headers: {} });
      expect(res.bytes.equals(whole)).toBe(true);
      expect(res.text).toHaveLength(whole.length);
      const x = recorder.exchanges[0]!;
      expect(x.response).toMatchObject({ status: 200, bytes: whole.length, sha256: sha(whole), truncated: true });
      expect(x.response!.body).toHaveLength(EVIDENCE_BODY_BYTES);
      expect(Buffer.from(x.response!.bodyBase64!, 'base64').equals(whole.subarray(0, EVIDENCE_BODY_BYTES))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('a body over the read cap is an E_RESPONSE_TOO_LARGE error for that exchange (exit 1, not 2), recorded cut', async () => {
    const recorder = new MemoryRecorder();
    const client = new ExchangeClient({ baseUrl: await answering(pattern(3 * 1024 * 1024)), recorder, maxResponseBytes: 1024 * 1024 });
    try {
      const err = await client.send({ method: 'GET', path: '/v1/wallet/rates', query: '', headers: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).code).toBe('E_RESPONSE_TOO_LARGE');
      expect((err as HarnessError).exitCode).toBe(1);
      expect((err as Error).message).toContain('exceeds 1048576 bytes');
      expect(recorder.exchanges).toHaveLength(1);
      const x = recorder.exchanges[0]!;
      expect(x.error).toContain('E_RESPONSE_TOO_LARGE');
      expect(x.response).toMatchObject({ status: 200, truncated: true });
      expect(x.response!.bytes).toBeGreaterThan(1024 * 1024);
      expect(x.response!.body.length).toBeLessThanOrEqual(EVIDENCE_BODY_BYTES);
    } finally {
      await client.close();
    }
  });
});
