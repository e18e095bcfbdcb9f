import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A clock-only admin API (REFERENCE-API.md section 11) that answers late, as one across a network would. */
export interface FakeAdminClock {
  readonly url: string;
  /** The server's clock now: real time plus its offset. */
  now(): number;
  /** Where the clock stood right after each move, in order. */
  readonly landings: number[];
  /** The size of each move, in order. */
  readonly moves: number[];
  /**
   * Instants (on its clock) at which something falls due: it answers the next as `next_due_ms` (null when none
   * is left), and calls `onDue` with each that a move passes, before it answers the move, as the mock makes a
   * webhook attempt that falls due.
   */
  schedule(instants: number[], onDue: (instant: number) => void): void;
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1. `inMs` delays each request before the clock
 * is read or moved, `outMs` delays each answer after it: `{inMs: 25}` is the
 * mock's `--latency-ms 25`, `{inMs: 25, outMs: 25}` a network 25 ms away each way.
 * With `untilMs: true` it moves to the `until_ms` of a move, as the mock does,
 * and answers `moved_ms`; without, it moves by `ms` only, as an older mock did.
 * With `strict: true` it refuses a move carrying any field but `ms` with 422,
 * as an implementation validating the body REFERENCE-API.md section 11 shows may.
 */
export async function startFakeAdminClock(latency: { inMs: number; outMs?: number; untilMs?: boolean; strict?: boolean }): Promise<FakeAdminClock> {
  let offset = 0;
  const landings: number[] = [];
  const moves: number[] = [];
  const now = (): number => Date.now() + offset;
  let dues: number[] | undefined;
  let onDue: (instant: number) => void = () => undefined;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      setTimeout(() => {
        let status = 200;
        let moved: number | undefined;
        if (req.headers['x-svc-admin'] !== '1') status = 403;
        else if (req.method === 'POST' && req.url === '/__admin/clock/advance') {
          const asked = JSON.parse(body) as { ms: number; until_ms?: number };
          if (latency.strict && Object.keys(asked).some((k) => k !== 'ms')) {
            res.writeHead(422, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { code: 'VALIDATION_FAILED' } }));
            return;
          }
          // One reading of the clock for the move and its landing: the millisecond that ticks after the move is real time, not the move.
          const at = now();
          const ms = latency.untilMs && asked.until_ms !== undefined ? Math.max(0, asked.until_ms - at) : asked.ms;
          offset += ms;
          moves.push(ms);
          landings.push(at + ms);
          for (const d of dues ?? []) if (d > at && d <= at + ms) onDue(d);
          if (latency.untilMs) moved = ms;
        } else if (req.method === 'POST' && req.url === '/__admin/clock/reset') offset = 0;
        else if (!(req.method === 'GET' && req.url === '/__admin/clock')) status = 404;
        const t = now();
        const nextDue = dues === undefined ? {} : { next_due_ms: dues.find((d) => d > t) ?? null };
        const answer = JSON.stringify({ now_ms: t, offset_ms: offset, ...(moved === undefined ? {} : { moved_ms: moved }), ...nextDue });
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(answer);
        }, latency.outMs ?? 0);
      }, latency.inMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/__admin`,
    now,
    landings,
    moves,
    schedule(instants, fn) {
      dues = [...instants].sort((a, b) => a - b);
      onDue = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
