import { HarnessError } from '../errors/harness-error.js';

/** Most redirects followed, each within the URL's origin. */
const MAX_REDIRECTS = 5;
/** Longest a fetch may take, redirects and body included. */
const FETCH_TIMEOUT_MS = 15_000;

/** Options of {@link fetchBounded}. */
interface FetchBoundedOptions {
  /** What is fetched, for messages (`OpenAPI document`). */
  what: string;
  /** Largest body accepted, as sent (Content-Length) and as decoded. */
  maxBytes: number;
  /** The Accept header. */
  accept?: string;
}

/**
 * GETs a URL the user named and returns its body as text, within bounds: a
 * redirect is followed only within the URL's origin (scheme, host and port:
 * a document URL must not lead the harness to another service), a body
 * announced larger than `maxBytes` is refused unread, and a body is read as a
 * stream and dropped as soon as its decoded size passes `maxBytes`, so a gzip
 * bomb costs at most that much memory. Errors are E_FILE_UNREADABLE,
 * `cannot read <what> <url>: …`.
 */
export async function fetchBounded(url: string, options: FetchBoundedOptions): Promise<string> {
  const fail = (why: string, cause?: unknown): HarnessError =>
    new HarnessError('E_FILE_UNREADABLE', `cannot read ${options.what} ${url}: ${why}`, cause === undefined ? undefined : { cause });
  const origin = new URL(url).origin;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no complete answer within ${FETCH_TIMEOUT_MS / 1000} s`)), FETCH_TIMEOUT_MS);
  try {
    let at = url;
    let res: Response | undefined;
    for (let hops = 0; ; hops++) {
      try {
        res = await fetch(at, { redirect: 'manual', headers: options.accept ? { accept: options.accept } : {}, signal: abort.signal });
      } catch (err) {
        throw fail(describe(err, abort), err);
      }
      if (res.status < 300 || res.status > 399 || res.status === 304) break;
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (location === null) throw fail(`it answered HTTP ${res.status} with no Location`);
      const next = new URL(location, at);
      if (next.origin !== origin) throw fail(`it redirects to another origin (${next.origin}), which is not followed`);
      if (hops >= MAX_REDIRECTS) throw fail(`more than ${MAX_REDIRECTS} redirects`);
      at = next.href;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw fail(`it answered HTTP ${res.status}`);
    }
    const announced = Number(res.headers.get('content-length'));
    if (Number.isFinite(announced) && announced > options.maxBytes) {
      await res.body?.cancel();
      throw fail(`it announces ${announced} bytes, over the limit of ${options.maxBytes}`);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = res.body?.getReader();
    while (reader) {
      let part: Awaited<ReturnType<typeof reader.read>>;
      try {
        part = await reader.read();
      } catch (err) {
        throw fail(describe(err, abort), err);
      }
      if (part.done) break;
      total += part.value.byteLength;
      if (total > options.maxBytes) {
        await reader.cancel();
        throw fail(`its body passes the limit of ${options.maxBytes} bytes (decoded)`);
      }
      chunks.push(part.value);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    clearTimeout(timer);
  }
}

/** A fetch failure in words: the timeout's reason, else the transport's code or message. */
function describe(err: unknown, abort: AbortController): string {
  if (abort.signal.aborted && abort.signal.reason instanceof Error) return abort.signal.reason.message;
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
