import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the verifying server saw of one request. */
export interface Seen {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  bodyBase64: string;
  stringToSign: string | null;
  valid: boolean;
  keyId: string | null;
}

// An implementation of section 3 written apart from src/protocol/request-signature.ts, so the test can catch its mistakes.
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
function canon(raw: string): string {
  if (raw === '') return '';
  const pairs = raw
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const i = p.indexOf('=');
      const k = i < 0 ? p : p.slice(0, i);
      const v = i < 0 ? '' : p.slice(i + 1);
      return [enc(decodeURIComponent(k)), enc(decodeURIComponent(v))] as const;
    });
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/**
 * A node:http server that checks the SVC-HMAC-SHA256 signature of every
 * request against the given secrets and answers what it saw as JSON. The
 * request may ask for a status (`x-echo-status`) and extra response headers
 * (`x-echo-headers`, JSON).
 */
export async function startVerifyingServer(secrets: Record<string, string>): Promise<{ url: string; port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const query = q < 0 ? '' : url.slice(q + 1);
      const auth = String(req.headers['authorization'] ?? '');
      const m = /^SVC-HMAC-SHA256 Credential=([^,]+), SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=([0-9a-f]{64})$/.exec(auth);
      let stringToSign: string | null = null;
      let valid = false;
      if (m) {
        stringToSign = [
          'SVC-HMAC-SHA256',
          String(req.headers['x-svc-timestamp']),
          String(req.headers['x-svc-nonce']),
          req.method,
          path || '/',
          canon(query),
          createHash('sha256').update(body).digest('hex'),
        ].join('\n');
        const secret = secrets[m[1]!];
        if (secret !== undefined) {
          const want = createHmac('sha256', secret).update(stringToSign).digest();
          valid = timingSafeEqual(want, Buffer.from(m[2]!, 'hex'));
        }
      }
      const entry: Seen = {
        method: req.method ?? '',
        path,
        query,
        headers: req.headers,
        bodyBase64: body.toString('base64'),
        stringToSign,
        valid,
        keyId: m ? m[1]! : null,
      };
      seen.push(entry);
      const status = Number(req.headers['x-echo-status'] ?? 200);
      const extra = req.headers['x-echo-headers'] ? (JSON.parse(String(req.headers['x-echo-headers'])) as Record<string, string>) : {};
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(entry));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
