import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../src/client/exchange-client.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createHarness } from '../../src/harness.js';
import { redactor } from '../../src/profile/redactor.js';
import { writeReports } from '../../src/report/write-reports.js';
import { leaksUnder } from '../helpers/secret-grep.js';
import { sampleRun } from './fixtures/sample-run.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'svc-leaks-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('written reports hold no secret in any form', () => {
  it('a run against the embedded mock: webhook endpoint answers carry both webhook secrets', async () => {
    const harness = createHarness();
    try {
      const { mock } = await harness.prepare();
      const secrets = mock!.agencies.flatMap((a) => [a.secret, a.webhook_secret, a.hotel_api_key, a.hotel_webhook_secret]);
      const result = await harness.run({ only: 'WH-02,WH-09' });
      const written = await writeReports(result, path.join(base, 'run'));
      expect(await leaksUnder(written.dir, secrets)).toEqual([]);
      // Redaction did happen: the answers held secrets, and their base64 copies were redacted too.
      const report = JSON.parse(await readFile(path.join(written.dir, 'report.json'), 'utf8')) as { exchanges: { response?: { bodyBase64?: string } }[] };
      const copies = report.exchanges.map((x) => x.response?.bodyBase64).filter((b): b is string => b !== undefined);
      expect(copies.some((b) => Buffer.from(b, 'base64').toString('utf8').includes('[REDACTED]'))).toBe(true);
    } finally {
      await harness.close();
    }
  }, 60_000);

  it('a target answering every secret plain, JSON-escaped, URL-encoded, base64 and base64url', async () => {
    const secrets = ['agency/secret+one==', 'whsec_two-2222', 'hotel.key.three', 'hotel/wh+four'];
    const server = createServer((_req, res) => {
      const body = JSON.stringify({
        plain: secrets,
        url: secrets.map((s) => `https://x.example/?s=${encodeURIComponent(s)}`),
        escaped: secrets.map((s) => s.replace(/\//g, '\\/')),
        b64: secrets.map((s, i) => Buffer.from(`${'p'.repeat(i)}${s}`).toString('base64')),
        b64url: secrets.map((s, i) => Buffer.from(`${'p'.repeat(i)}${s}`).toString('base64url')),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const recorder = new MemoryRecorder();
    const client = new ExchangeClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, recorder });
    try {
      await client.send({ method: 'GET', path: '/v1/webhook-endpoint', query: '', headers: {} });
      const exchanges = redactor(secrets)(recorder.exchanges);
      const written = await writeReports(
        sampleRun({ runId: '20261121-194502-cd34', exchanges: [...sampleRun().exchanges, ...exchanges] }),
        path.join(base, 'synthetic'),
      );
      expect(await leaksUnder(written.dir, secrets)).toEqual([]);
    } finally {
      await client.close();
      server.close();
    }
  });
});
