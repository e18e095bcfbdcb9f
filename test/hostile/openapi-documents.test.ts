/*
 * Hostile OpenAPI documents and the servers that serve them: each is refused
 * (E_FILE_UNREADABLE, exit 2) or judged as an ERROR naming the culprit, in
 * bounded time and memory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeResponsesConform } from '../../src/checks/schema/responses-conform.js';
import { HarnessError } from '../../src/errors/harness-error.js';
import { bundledOpenApiDocument, loadOpenApiDocument, type OpenApiDocument } from '../../src/openapi/load-document.js';
import { ResponseValidator } from '../../src/openapi/response-validator.js';
import { answer, P } from '../checks/_fixtures.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let server: Server;
let other: Server;
let base: string;
let otherBase: string;
const SMALL_DOC = JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });

/** Routes of the hostile document server. */
function route(url: string, res: import('node:http').ServerResponse): void {
  if (url === '/doc.json') {
    res.setHeader('content-type', 'application/json');
    res.end(SMALL_DOC);
  } else if (url === '/same-origin') {
    res.writeHead(302, { location: '/doc.json' }).end();
  } else if (url === '/elsewhere') {
    res.writeHead(302, { location: `${otherBase}/doc.json` }).end();
  } else if (url === '/announced-huge') {
    // Announces 700 MB and sends nothing more: refused on the header alone.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * 1024 * 1024) });
    res.flushHeaders();
  } else if (url === '/endless') {
    // No length, an endless stream of JSON-ish bytes.
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  } else if (url === '/gzip-bomb') {
    // A few MB on the wire, gigabytes once inflated.
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const gz = createGzip({ level: 9 });
    gz.pipe(res);
    const zeros = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < 2048 && !res.destroyed) {
        sent += 1;
        if (!gz.write(zeros)) return void gz.once('drain', pump);
      }
      gz.end();
    };
    pump();
  } else res.writeHead(404).end();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hostile-openapi-'));
  server = createServer((req, res) => route(req.url ?? '/', res));
  other = createServer((_req, res) => res.end(SMALL_DOC));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
  await rm(dir, { recursive: true, force: true });
});

async function refusal(source: string): Promise<HarnessError> {
  try {
    await loadOpenApiDocument(source);
  } catch (err) {
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).code).toBe('E_FILE_UNREADABLE');
    return err as HarnessError;
  }
  throw new Error(`${source} loaded`);
}

describe('hostile OpenAPI sources', () => {
  it('a redirect within the origin is followed', async () => {
    await expect(loadOpenApiDocument(`${base}/same-origin`)).resolves.toMatchObject({ openapi: '3.1.0' });
  });

  it('a redirect to another port is refused, naming the origin', async () => {
    const err = await refusal(`${base}/elsewhere`);
    expect(err.message).toContain(`redirects to another origin (${otherBase})`);
  });

  it('a body announced at 700 MB is refused unread', { timeout: 10_000 }, async () => {
    const err = await refusal(`${base}/announced-huge`);
    expect(err.message).toMatch(/announces 734003200 bytes, over the limit of 8388608/);
  });

  it('an endless body is cut at the limit', { timeout: 10_000 }, async () => {
    const err = await refusal(`${base}/endless`);
    expect(err.message).toMatch(/passes the limit of 8388608 bytes/);
  });

  it('a gzip bomb is cut at the decoded limit', { timeout: 10_000 }, async () => {
    const err = await refusal(`${base}/gzip-bomb`);
    expect(err.message).toMatch(/passes the limit of 8388608 bytes \(decoded\)/);
  });

  it('a FIFO is refused at once (it blocked forever)', { timeout: 5_000 }, async () => {
    const path = join(dir, 'doc.fifo');
    execFileSync('mkfifo', [path]);
    const err = await refusal(path);
    expect(err.message).toMatch(/FIFO.*not a regular file/);
  });

  it('a file over the limit is refused before it is read', async () => {
    const path = join(dir, 'big.json');
    await writeFile(path, `{"openapi":"3.1.0","pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    const err = await refusal(path);
    expect(err.message).toMatch(/more than the 8 MiB accepted/);
  });

  it('YAML over 2 MiB is refused (parsing it takes ~50× its size), with the JSON way named', async () => {
    const path = join(dir, 'big.yaml');
    await writeFile(path, `openapi: 3.1.0\npad: ${'x'.repeat(3 * 1024 * 1024)}\n`);
    const err = await refusal(path);
    expect(err.message).toMatch(/as YAML it may hold 2097152 bytes.*give it as JSON/);
  });

  it('a YAML alias bomb is refused', async () => {
    const lines = ['openapi: 3.1.0', 'x:', '  a0: &a0 [x,x,x,x,x,x,x,x,x,x]'];
    for (let i = 1; i < 10; i++) lines.push(`  a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
    const path = join(dir, 'laughs.yaml');
    await writeFile(path, `${lines.join('\n')}\n`);
    const err = await refusal(path);
    expect(err.message).toContain('YAML aliases expand past the bound of 10000 (maxAliasCount)');
  });

  it("`run` with a FIFO as the profile's openapi exits 2 naming it, before any request", { timeout: 30_000 }, async () => {
    const fifo = join(dir, 'run.fifo');
    execFileSync('mkfifo', [fifo]);
    const profile = join(dir, 'target.yaml');
    await writeFile(profile, `base_url: http://127.0.0.1:9/v1\nclock: { control: none }\nopenapi: ${fifo}\n`);
    const run = await runCli(['run', '--target', profile, '--only', 'SC-01', '--report-dir', join(dir, 'reports')]);
    expect(run.stderr).toContain(`cannot read OpenAPI document ${fifo}`);
    expect(run.code).toBe(2);
  });
});

const rateHeaders = { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-reset': '0', 'x-ratelimit-resource': 'read' };

/** A wallet balance exchange judged against the bundled document changed by `edit`. */
function judgeBalance(edit: (doc: Record<string, any>) => void, currency = 'EUR') {
  const doc = structuredClone(bundledOpenApiDocument()) as Record<string, any>;
  edit(doc);
  const x = answer(
    200,
    { currency, balance: 5, as_of: '2027-01-01T10:15:00.000Z' },
    { method: 'GET', url: `${P.base_url}/wallet/balance`, headers: rateHeaders },
  ).exchange;
  return judgeResponsesConform([x], new ResponseValidator(doc as OpenApiDocument));
}

describe('hostile schemas in an OpenAPI document (SC-01)', () => {
  it('a catastrophic pattern is judged at once (it took seconds per character: here hours)', { timeout: 30_000 }, () => {
    const pattern = '^(qt_)?([A-Za-z0-9_.~-]+)+!$';
    // In a child process stopped after 20 s: a judge that backtracks blocks its thread, and no test timeout can stop it.
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'test/hostile/_judge-balance.ts', JSON.stringify({ type: 'string', pattern }), `qt_${'a'.repeat(40)}`],
      {
        timeout: 20_000,
        encoding: 'utf8',
      },
    );
    expect(run.signal, 'the judge was stopped: it hung').toBeNull();
    const out = JSON.parse(run.stdout) as { verdict: string; message: string };
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain(`must match pattern "${pattern}"`);
  });

  it('a pattern RE2 cannot evaluate (a back-reference) is an ERROR naming it', () => {
    const out = judgeBalance((d) => (d.components.schemas.WalletBalance.properties.currency = { type: 'string', pattern: '^(a+)\\1$' }));
    expect(out.verdict).toBe('ERROR');
    expect(out.message).toContain('pattern "^(a+)\\\\1$" cannot be evaluated in linear time');
  });

  it('a $ref cycle between responses is an ERROR naming the cycle (it passed)', () => {
    const out = judgeBalance((d) => {
      d.components.responses = { ...d.components.responses, R1: { $ref: '#/components/responses/R2' }, R2: { $ref: '#/components/responses/R1' } };
      d.paths['/wallet/balance'].get.responses['200'] = { $ref: '#/components/responses/R1' };
    });
    expect(out.verdict).toBe('ERROR');
    expect(out.message).toContain('$ref cycle: #/components/responses/R1 → #/components/responses/R2 → #/components/responses/R1');
  });

  it('a $ref cycle between schemas is an ERROR naming the cycle (it overflowed the stack)', () => {
    const out = judgeBalance((d) => {
      d.components.schemas.WalletBalance = { $ref: '#/components/schemas/B' };
      d.components.schemas.B = { allOf: [{ $ref: '#/components/schemas/WalletBalance' }] };
    });
    expect(out.verdict).toBe('ERROR');
    expect(out.message).toContain(
      '$ref cycle: #/components/schemas/WalletBalance → #/components/schemas/B → #/components/schemas/B/allOf/0 → #/components/schemas/WalletBalance',
    );
  });

  it('a recursive tree schema (through properties) is no cycle', () => {
    const out = judgeBalance((d) => (d.components.schemas.WalletBalance.properties.child = { $ref: '#/components/schemas/WalletBalance' }));
    expect(out.verdict).toBe('PASS');
  });

  it('a $ref that leads nowhere is an ERROR naming it', () => {
    const out = judgeBalance((d) => (d.paths['/wallet/balance'].get.responses['200'] = { $ref: '#/components/responses/Nowhere' }));
    expect(out.verdict).toBe('ERROR');
    expect(out.message).toContain('$ref "#/components/responses/Nowhere"');
  });
});
