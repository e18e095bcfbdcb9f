import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAbortSignal } from '../../src/client/abort-scope.js';
import { ExchangeClient } from '../../src/client/exchange-client.js';
import { MemoryRecorder } from '../../src/client/exchange.js';

/** Answers 200 and trickles its body one byte every 50 ms, forever. */
function trickling(): Server {
  return createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  });
}

const connections = (server: Server) => new Promise<number>((r) => server.getConnections((_, n) => r(n)));

describe('ExchangeClient against a body that never ends', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = trickling();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('fails the exchange at timeoutMs and records why', async () => {
    const recorder = new MemoryRecorder();
    const client = new ExchangeClient({ baseUrl, timeoutMs: 250, recorder });
    const t0 = Date.now();
    await expect(client.send({ method: 'GET', path: '/x', query: '', headers: {} })).rejects.toThrow(/no whole answer within 250 ms/);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(recorder.exchanges).toHaveLength(1);
    expect(recorder.exchanges[0]!.error).toContain('within 250 ms');
    await client.close();
  });

  it('aborts an exchange when the scope signal aborts', async () => {
    const client = new ExchangeClient({ baseUrl, timeoutMs: 60_000 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('time is up')), 200);
    await expect(withAbortSignal(abort.signal, () => client.send({ method: 'GET', path: '/x', query: '', headers: {} }))).rejects.toThrow(
      /aborted: time is up/,
    );
    await client.close();
  });

  it('closes within the grace period, destroying a request still running', async () => {
    const client = new ExchangeClient({ baseUrl, timeoutMs: 60_000 });
    const pending = client.send({ method: 'GET', path: '/x', query: '', headers: {} });
    pending.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    expect(await connections(server)).toBeGreaterThan(0);
    const t0 = Date.now();
    await client.close(200);
    expect(Date.now() - t0).toBeLessThan(1_500);
    await expect(pending).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(await connections(server)).toBe(0);
  });
});
