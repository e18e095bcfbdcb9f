/**
 * The upper rungs of the floor ladder (not a test): the fastify floor of
 * `fastify-floor.mjs` (catch-all route, raw-buffer body parser, six headers)
 * doing, per request, what the protocol itself asks of any server of a signed
 * search, written plainly, with none of the mock's own layers:
 *
 *  - `--rung auth`: the request signature verified with `src/protocol/`
 *    (`parseAuthorization`, `buildStringToSign`, `computeSignature` under the
 *    agency's key object, constant-time compare), the timestamp's skew, and
 *    the nonce recorded in a map per key; answers the fixed bytes of `--answer`.
 *  - `--rung work`: the same, then the body parsed as JSON, and an answer of
 *    the same shape and size as the mock's (the offers of `--answer`) with
 *    fresh quote tokens signed the way the mock signs them (one payload and
 *    one HMAC tag per search, a token per offer) and their expiry, built with
 *    `JSON.stringify` per request.
 *
 * A failed check answers 401 (the bench counts any failure). Speaks the
 * floor's CLI contract: prints `{"base_url", "agencies"}`, stops on SIGTERM.
 *
 *   node --import tsx bench/mock/fastify-ladder.ts --rung auth|work --fixture <file> --answer <file>
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { buildStringToSign, computeSignature, parseAuthorization, splitPathQuery } from '../../src/protocol/index.js';

interface FixtureAgency {
  agency_id: string;
  key_id: string;
  secret: string;
  currency: string;
}
interface Offer {
  result_id: string;
  product: string;
  summary: string;
  price: { amount: number; currency: string };
}

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rung = arg('--rung');
if (rung !== 'auth' && rung !== 'work') throw new Error('--rung must be auth or work');
const fixture = JSON.parse(readFileSync(arg('--fixture')!, 'utf8')) as { agencies: FixtureAgency[] };
const fixedAnswer = readFileSync(arg('--answer')!);
const offers = (JSON.parse(fixedAnswer.toString('utf8')) as { results: Offer[] }).results.map((o) => ({
  result_id: o.result_id,
  product: o.product,
  summary: o.summary,
  price: o.price,
}));

const byKey = new Map<string, { id: string; key: KeyObject; currency: string; nonces: Map<string, number> }>();
for (const a of fixture.agencies) {
  byKey.set(a.key_id, { id: a.agency_id, key: createSecretKey(Buffer.from(a.secret, 'utf8')), currency: a.currency, nonces: new Map() });
}
const quoteKey = createSecretKey(randomBytes(32));
const QUOTE_LIFETIME_MS = 15 * 60_000;

/** The agency a request is signed by, or undefined when any check fails. */
function verify(method: string, url: string, headers: Record<string, string | string[] | undefined>, body: Buffer): ReturnType<typeof byKey.get> {
  const auth = parseAuthorization(headers.authorization as string | undefined);
  if (!auth || !auth.signedHeaders.includes('x-svc-nonce') || !auth.signedHeaders.includes('x-svc-timestamp')) return undefined;
  const timestamp = headers['x-svc-timestamp'] as string | undefined;
  const nonce = headers['x-svc-nonce'] as string | undefined;
  if (timestamp === undefined || nonce === undefined || !/^\d{1,15}$/.test(timestamp) || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return undefined;
  const agency = byKey.get(auth.keyId);
  if (!agency) return undefined;
  const { path, query } = splitPathQuery(url);
  const expected = computeSignature(agency.key, buildStringToSign({ method, path, query, body, timestamp: Number(timestamp), nonce }));
  let diff = expected.length ^ auth.signature.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ auth.signature.charCodeAt(i);
  if (diff !== 0) return undefined;
  const now = Date.now();
  if (Math.abs(now / 1000 - Number(timestamp)) > 300) return undefined;
  const seen = agency.nonces.get(nonce);
  if (seen !== undefined && now - seen < 600_000) return undefined;
  agency.nonces.set(nonce, now);
  return agency;
}

let n = 0;
let quotes = 0;
/** The search's answer: offers with fresh tokens (payload as the mock's, one tag per search) and expiry. */
function answer(agency: NonNullable<ReturnType<typeof byKey.get>>, body: Buffer): string {
  const criteria = (JSON.parse(body.toString('utf8')) as { criteria: Record<string, unknown> }).criteria;
  const expiresAt = Date.now() + QUOTE_LIFETIME_MS;
  const amounts = offers.map((o) => o.price.amount);
  const digest = String(criteria.origin ?? '').padEnd(24, '0');
  const payload = Buffer.from(
    JSON.stringify([`q${(quotes++).toString(36)}`, agency.id, offers[0]?.product ?? 'flights', agency.currency, expiresAt, digest, amounts]),
  ).toString('base64url');
  const tag = createHmac('sha256', quoteKey).update(payload).digest('base64url').slice(0, 27);
  const expires = new Date(expiresAt).toISOString();
  return JSON.stringify({ results: offers.map((o, i) => ({ ...o, quote_token: `qt_${payload}.${i}.${tag}`, quote_expires_at: expires })) });
}

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, b, done) => done(null, b));
app.route({
  method: ['GET', 'POST'],
  url: '*',
  handler: (req, reply) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const agency = verify(req.method, req.url, req.headers, body);
    if (!agency) {
      void reply.code(401).send('{"error":{"code":"UNAUTHENTICATED"}}');
      return;
    }
    void reply
      .code(200)
      .headers({
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': `req_${n++}`,
        'x-ratelimit-limit': '1000000',
        'x-ratelimit-remaining': '999999',
        'x-ratelimit-reset': '0',
        'x-ratelimit-resource': 'read',
      })
      .send(rung === 'work' ? answer(agency, body) : fixedAnswer);
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const a = fixture.agencies[0]!;
console.log(
  JSON.stringify({
    base_url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`,
    agencies: [{ agency_id: a.agency_id, key_id: a.key_id, secret: a.secret }],
  }),
);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
