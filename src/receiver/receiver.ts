import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { splitPathQuery } from '../protocol/index.js';
import { deliveryKeeper } from './delivery-capture.js';
import { DeliveryLog, type DeliveryFilter, type ReceivedDelivery } from './delivery-log.js';
import { listen } from './listen.js';
import { readBody } from './read-body.js';
import type { ResponsePlan } from './response-plan.js';
import { ScriptedAnswers } from './scripted-answers.js';

/** Largest body the receiver accepts; larger ones are answered 413 and not recorded. */
export const RECEIVER_MAX_BODY_BYTES = 1024 * 1024;

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

function pathOf(url: string | undefined): string {
  return splitPathQuery(url ?? '/').path;
}

/**
 * Starts the harness's webhook receiver: records every request (headers, raw
 * body, arrival time) and answers per path as scripted (200 by default).
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const log = new DeliveryLog();
  const answers = new ScriptedAnswers();
  const keeper = deliveryKeeper();

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // Stamped as the request arrives, not once its body is read: the time between is the harness's, not the sender's.
    const receivedAt = now();
    const path = pathOf(req.url);
    readBody(req, res, RECEIVER_MAX_BODY_BYTES, (body) => {
      const { status, delayMs } = answers.next(path);
      const delivery = { method: req.method ?? 'GET', path, headers: { ...req.headers }, ...keeper.keep(body), receivedAt, status };
      answers.send(res, status, delayMs);
      log.add(delivery);
    });
  };

  const server = createServer(onRequest);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  const boundUrl = await listen(server, host, options.port ?? 0);
  const url = (options.publicUrl ?? boundUrl).replace(/\/+$/, '');

  return {
    url,
    boundUrl,
    script: (path, plan) => answers.script(path, plan),
    deliveries: (filter) => log.list(filter),
    waitFor: (predicate, timeoutMs, count) => log.waitFor(predicate, timeoutMs, count),
    clear() {
      log.clear();
      keeper.reset();
      answers.clear();
    },
    async close() {
      answers.close();
      log.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
