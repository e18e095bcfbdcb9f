import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** One service event as the receiver accepted it. */
export interface ReceivedEvent {
  id: string;
  type: string;
  data: any;
}

/** Largest accepted distance between a delivery's timestamp and our clock, s. */
export const WEBHOOK_TOLERANCE_S = 300;

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** True when `signatureHeader` holds a `v1,<base64>` signature of `<id>.<timestamp>.<body>` under the `whsec_` secret. */
export function verifySignature(secret: string, id: string, timestamp: string, body: Buffer, signatureHeader: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  let match = false;
  for (const part of signatureHeader.split(' ')) {
    const [version, sig] = part.split(',', 2);
    if (version !== 'v1' || sig === undefined) continue;
    const given = Buffer.from(sig, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
  }
  return match;
}

/**
 * The agency's webhook endpoint: verifies every delivery's signature and
 * timestamp (refusing forged or stale ones with 401 / 400), and handles each
 * event once: a delivery whose `X-SVC-Webhook-Id` was already handled is
 * acknowledged with 200 and otherwise ignored.
 */
export class WebhookReceiver {
  readonly events: ReceivedEvent[] = [];
  private readonly seen = new Set<string>();
  private readonly waiters: Array<() => void> = [];
  private server: Server | undefined;

  constructor(
    private readonly secret: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Listens on 127.0.0.1 (a free port) and returns the endpoint URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { status, note } = this.judge(req.headers, Buffer.concat(chunks));
        this.log(`webhook ${header(req.headers, 'x-svc-webhook-id') ?? '?'}: ${status} ${note}`);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(note);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}/webhooks/svc`;
  }

  /** Resolves once `done(events)` is true, or rejects after `timeoutMs`. */
  waitFor(done: (events: ReceivedEvent[]) => boolean, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`events did not arrive within ${timeoutMs} ms`)), timeoutMs);
      const check = (): void => {
        if (done(this.events)) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private judge(headers: Record<string, string | string[] | undefined>, body: Buffer): { status: number; note: string } {
    const id = header(headers, 'x-svc-webhook-id');
    const timestamp = header(headers, 'x-svc-webhook-timestamp');
    const signature = header(headers, 'x-svc-webhook-signature');
    if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return { status: 400, note: 'missing webhook headers' };
    if (!verifySignature(this.secret, id, timestamp, body, signature)) return { status: 401, note: 'bad signature' };
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_S) return { status: 400, note: 'stale timestamp' };
    if (this.seen.has(id)) return { status: 200, note: 'duplicate, already handled' };
    let event: { type?: unknown; data?: unknown };
    try {
      event = JSON.parse(body.toString('utf8'));
    } catch {
      return { status: 400, note: 'body is not JSON' };
    }
    this.seen.add(id);
    this.events.push({ id, type: String(event.type), data: event.data });
    for (const w of this.waiters.splice(0)) w();
    return { status: 200, note: 'ok' };
  }
}
