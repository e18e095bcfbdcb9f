import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_FIXTURE } from '../../src/mock/fixture/default-fixture.js';
import type { Fixture, RateLimits } from '../../src/mock/fixture/fixture-types.js';

/** The default fixture with every agency's limits replaced (small limits make rate tests fast). */
export function fixtureWithLimits(limits: RateLimits, wallet?: number): Fixture {
  return {
    agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { ...limits }, ...(wallet !== undefined ? { wallet } : {}) })),
  };
}

/** A webhook receiver on 127.0.0.1:0 that answers 200 and records each body. */
export async function startReceiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
