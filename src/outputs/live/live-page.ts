import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../../errors/harness-error.js';
import type { BucketUse, LiveLoad } from '../../load/live-load.js';
import type { LoadRunResult } from '../../results/run-result.js';
import { LIVE_PAGE_HTML, LIVE_PAGE_SCRIPT } from './live-page-assets.js';
import { liveFrame, type LiveFrame } from './live-frame.js';

/** Milliseconds between two frames. */
const FRAME_MS = 1000;

/** A live page of a running load: serves the page and its frames until finished. */
interface LivePage {
  /** The page's address. */
  url: string;
  /** Starts sending frames of the running load, once a second. */
  watch(live: LiveLoad): void;
  /** Sends the final frame, the report's figures, and closes the page's server. */
  finish(result: LoadRunResult): Promise<void>;
  /** Closes the server (the load ended without a result). */
  close(): Promise<void>;
}

const SECURITY = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** Serves the live page of load `runId` on `host:port` (port 0: a free one). */
export async function startLivePage(o: { runId: string; host: string; port: number }): Promise<LivePage> {
  const clients = new Set<ServerResponse>();
  let frame: LiveFrame | undefined;
  let buckets: BucketUse[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopTracking: (() => void) | undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') {
      res.writeHead(405, SECURITY).end();
    } else if (path === '/') {
      res.writeHead(200, { ...SECURITY, 'Content-Type': 'text/html; charset=utf-8' }).end(LIVE_PAGE_HTML);
    } else if (path === '/live.js') {
      res.writeHead(200, { ...SECURITY, 'Content-Type': 'text/javascript; charset=utf-8' }).end(LIVE_PAGE_SCRIPT);
    } else if (path === '/frame') {
      res.writeHead(frame ? 200 : 204, { ...SECURITY, 'Content-Type': 'application/json' }).end(frame ? JSON.stringify(frame) : undefined);
    } else if (path === '/events') {
      res.writeHead(200, { ...SECURITY, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      if (frame) res.write(`data: ${JSON.stringify(frame)}\n\n`);
      if (frame?.state === 'finished') res.end();
      else {
        clients.add(res);
        req.on('close', () => clients.delete(res));
      }
    } else {
      res.writeHead(404, SECURITY).end();
    }
  });
  const send = (f: LiveFrame): void => {
    frame = f;
    const data = `data: ${JSON.stringify(f)}\n\n`;
    for (const c of clients) c.write(data);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new HarnessError('E_PORT_IN_USE', `--dashboard: port ${o.port} on ${o.host} is taken; name another (--dashboard 0 takes a free one)`)
          : new HarnessError('E_USAGE', `--dashboard: cannot listen on ${o.host}:${o.port} (${e.code ?? e.message})`, { cause: e }),
      ),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const close = async (): Promise<void> => {
    clearInterval(timer);
    stopTracking?.();
    for (const c of clients) c.end();
    clients.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A connection still busy a second later (a page mid-request) is cut: the load's command must end.
    const cut = setTimeout(() => server.closeAllConnections(), 1000);
    await closed;
    clearTimeout(cut);
  };
  return {
    url: `http://${host}:${address.port}/`,
    watch(live) {
      const tracked = live.track();
      stopTracking = tracked.stop;
      const tick = (): void => {
        const view = tracked.view();
        buckets = view.buckets;
        send(liveFrame(o.runId, view.load, buckets, 'running'));
      };
      tick();
      timer = setInterval(tick, FRAME_MS);
      timer.unref();
    },
    async finish(result) {
      clearInterval(timer);
      stopTracking?.();
      const verdicts: Record<string, number> = {};
      for (const c of result.cases) if (c.kind === 'check') verdicts[c.verdict] = (verdicts[c.verdict] ?? 0) + 1;
      send(liveFrame(result.runId, result.load, buckets, 'finished', verdicts));
      await close();
    },
    close,
  };
}
