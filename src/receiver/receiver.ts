import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { splitPathQuery } from '../client/split-path-query.js';
import { HarnessError } from '../errors/harness-error.js';
import { DEFAULT_PLAN, statusFor, validatePlan, type ResponsePlan } from './response-plan.js';

/** Largest body the receiver accepts; larger ones are answered 413 and not recorded. */
export const RECEIVER_MAX_BODY_BYTES = 1024 * 1024;

/** One request the receiver recorded. */
export interface ReceivedDelivery {
  /** 1-based arrival order across all paths. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Headers with lower-case names, as Node parsed them. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes. */
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** Arrival time from the receiver's `now()` (target time when a harness drives a mock clock). */
  receivedAt: number;
  /** Status the receiver answered. */
  status: number;
}

/** Which deliveries to list: those of one path, or those a predicate keeps. */
export type DeliveryFilter = { path?: string; pathPrefix?: string } | ((d: ReceivedDelivery) => boolean);

/** Options of the receiver. */
export interface ReceiverOptions {
  /** @defaultValue '127.0.0.1' */
  host?: string | undefined;
  /** @defaultValue 0 (a free port) */
  port?: number | undefined;
  /** URL the target reaches the receiver at, when it is not the bound address (a tunnel, a container). */
  publicUrl?: string | undefined;
  /** Clock that stamps arrivals, in ms since the epoch. @defaultValue Date.now */
  now?: () => number;
}

/** A running webhook receiver. */
export interface Receiver {
  /** Base URL to register with the target (`publicUrl` when given, else the bound address); add a path per check. */
  readonly url: string;
  /** The bound address, `http://host:port`. */
  readonly boundUrl: string;
  /** Sets what `path` answers from now on, and restarts its attempt count. */
  script(path: string, plan: ResponsePlan): void;
  /** Recorded deliveries in arrival order, optionally filtered. */
  deliveries(filter?: DeliveryFilter): ReceivedDelivery[];
  /**
   * Resolves once at least `count` recorded deliveries match `predicate`, with
   * the matching ones; at `timeoutMs` (real time) resolves with what matched so
   * far, so a shortfall is data for the caller, not an exception.
   */
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number, count?: number): Promise<ReceivedDelivery[]>;
  /** Forgets recorded deliveries, scripts and attempt counts. */
  clear(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

interface Waiter {
  predicate: (d: ReceivedDelivery) => boolean;
  count: number;
  resolve: (found: ReceivedDelivery[]) => void;
  timer: NodeJS.Timeout;
}

function pathOf(url: string | undefined): string {
  return splitPathQuery(url ?? '/').path;
}

function applyFilter(list: ReceivedDelivery[], filter: DeliveryFilter | undefined): ReceivedDelivery[] {
  if (!filter) return list;
  if (typeof filter === 'function') return list.filter(filter);
  return list.filter(
    (d) => (filter.path === undefined || d.path === filter.path) && (filter.pathPrefix === undefined || d.path.startsWith(filter.pathPrefix)),
  );
}

/**
 * Starts the harness's webhook receiver: records every request (headers, raw
 * body, arrival time) and answers per path as scripted (200 by default).
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  let recorded: ReceivedDelivery[] = [];
  let plans = new Map<string, ResponsePlan>();
  let counts = new Map<string, number>();
  let waiters = new Set<Waiter>();
  let seq = 0;
  const delayed = new Set<NodeJS.Timeout>();

  const settle = (): void => {
    for (const w of waiters) {
      const found = recorded.filter(w.predicate);
      if (found.length >= w.count) {
        clearTimeout(w.timer);
        waiters.delete(w);
        w.resolve(found);
      }
    }
  };

  const answer = (res: ServerResponse, status: number, delayMs: number): void => {
    const send = (): void => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    if (delayMs <= 0) return send();
    const t = setTimeout(() => {
      delayed.delete(t);
      send();
    }, delayMs);
    delayed.add(t);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const path = pathOf(req.url);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > RECEIVER_MAX_BODY_BYTES) {
      res.writeHead(413, { connection: 'close', 'content-type': 'application/json' }).end('{"error":"body too large"}');
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > RECEIVER_MAX_BODY_BYTES) {
        refused = true;
        res.writeHead(413, { connection: 'close', 'content-type': 'application/json' }).end('{"error":"body too large"}');
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (refused) return;
      const plan = plans.get(path) ?? DEFAULT_PLAN;
      const index = counts.get(path) ?? 0;
      counts.set(path, index + 1);
      const status = statusFor(plan, index);
      const body = Buffer.concat(chunks);
      recorded.push({
        seq: ++seq,
        method: req.method ?? 'GET',
        path,
        headers: { ...req.headers },
        body,
        text: body.toString('utf8'),
        receivedAt: now(),
        status,
      });
      answer(res, status, plan.delayMs ?? 0);
      settle();
    });
  };

  const server = createServer(onRequest);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(
        err.code === 'EADDRINUSE'
          ? new HarnessError('E_PORT_IN_USE', `webhook receiver cannot listen on ${host}:${options.port ?? 0}: port already in use`, { cause: err })
          : new HarnessError('E_USAGE', `webhook receiver cannot listen on ${host}:${options.port ?? 0}: ${err.message}`, { cause: err }),
      );
    };
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', () => undefined);
  const addr = server.address() as AddressInfo;
  const boundUrl = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  const url = (options.publicUrl ?? boundUrl).replace(/\/+$/, '');

  return {
    url,
    boundUrl,
    script(path, plan) {
      validatePlan(plan);
      plans.set(path, plan);
      counts.delete(path);
    },
    deliveries(filter) {
      return applyFilter(recorded, filter).slice();
    },
    waitFor(predicate, timeoutMs, count = 1) {
      return new Promise((resolve) => {
        const found = recorded.filter(predicate);
        if (found.length >= count) return resolve(found);
        const waiter: Waiter = {
          predicate,
          count,
          resolve,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            resolve(recorded.filter(predicate));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    clear() {
      recorded = [];
      plans = new Map();
      counts = new Map();
    },
    async close() {
      for (const t of delayed) clearTimeout(t);
      delayed.clear();
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.resolve(recorded.filter(w.predicate));
      }
      waiters = new Set();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
