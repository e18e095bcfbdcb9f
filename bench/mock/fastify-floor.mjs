/**
 * The fastify floor of the throughput bench (not a test): a fastify server
 * shaped like the mock's service app (catch-all route, raw-buffer body
 * parser) answering fixed bytes with the mock's six headers: the bytes of
 * the file named by `--answer` (the throughput bench passes the mock's own
 * answer to its search), else 2 123 bytes. The throughput bench runs it as
 * its arm F, the floor the mock's CPU per search is judged against. Speaks
 * the mock's CLI contract closely enough to stand in for it in arm C too:
 *
 *   MOCK_ENTRY=bench/mock/fastify-floor.mjs node --import tsx bench/mock/throughput.bench.ts
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const fixture = JSON.parse(readFileSync(process.argv[process.argv.indexOf('--fixture') + 1], 'utf8'));
const answerAt = process.argv.indexOf('--answer');
const body = answerAt === -1 ? Buffer.from('x'.repeat(2123)) : readFileSync(process.argv[answerAt + 1]);
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, b, done) => done(null, b));
let n = 0;
app.route({
  method: ['GET', 'POST'],
  url: '*',
  handler: (_req, reply) => {
    reply
      .code(200)
      .headers({
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': `req_${n++}`,
        'x-ratelimit-limit': '1000000',
        'x-ratelimit-remaining': '999999',
        'x-ratelimit-reset': '0',
        'x-ratelimit-resource': 'read',
      })
      .send(body);
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const a = fixture.agencies[0];
console.log(
  JSON.stringify({ base_url: `http://127.0.0.1:${app.server.address().port}/v1`, agencies: [{ agency_id: a.agency_id, key_id: a.key_id, secret: a.secret }] }),
);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
