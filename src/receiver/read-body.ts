import type { IncomingMessage, ServerResponse } from 'node:http';

function tooLarge(res: ServerResponse): void {
  res.writeHead(413, { connection: 'close', 'content-type': 'application/json' }).end('{"error":"body too large"}');
}

/**
 * Reads a request's body up to `maxBytes` and hands it to `onBody`; a larger
 * body (declared or sent) is answered 413 and never handed over.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number, onBody: (body: Buffer) => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    tooLarge(res);
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > maxBytes) {
      refused = true;
      tooLarge(res);
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (!refused) onBody(Buffer.concat(chunks));
  });
}
