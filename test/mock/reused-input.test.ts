import { describe, expect, it } from 'vitest';
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';
import { MockClock } from '../../src/clock/mock-clock.js';
import { DefectSet } from '../../src/mock/defects/defect-set.js';
import { MockService } from '../../src/mock/domain/mock-service.js';
import { RequestLog } from '../../src/mock/domain/request-log.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { ServicePipeline } from '../../src/mock/http/pipeline.js';
import type { WireResponse } from '../../src/mock/http/wire.js';

const [agency] = generateAgencies(1, { limits: { read: 1000, write: 1000 } });

function searchRequest(product: string, body: string) {
  const path = `/v1/${product}/search`;
  const signed = signRequest({
    method: 'POST',
    path,
    body,
    keyId: agency!.key_id,
    secret: agency!.secret,
    timestamp: Math.floor(Date.now() / 1000),
    nonce: freshNonce(),
  });
  return { method: 'POST', url: path, headers: { ...signed.headers, host: '127.0.0.1', 'content-type': 'application/json' }, body: Buffer.from(body) };
}

/** A service of the one agency on `clock`, quotes living 15 minutes. */
function newService(clock: MockClock): MockService {
  return new MockService({
    clock,
    defects: new DefectSet(),
    fixture: { agencies: [agency!] },
    quoteLifetimeMs: 900_000,
    supplierLatencyMs: 1,
    emit: () => undefined,
  });
}

describe('a search body validated before', () => {
  it('answers as the first time: the same offers, fresh tokens, and the other product judges it anew', async () => {
    const clock = new MockClock();
    const pipeline = new ServicePipeline(newService(clock), new RequestLog());
    const answer = async (
      product: string,
      body: string,
    ): Promise<{ status: number; json: { results?: Array<Record<string, unknown>>; error?: { code: string } } }> => {
      const res: WireResponse = await pipeline.handle(searchRequest(product, body));
      return { status: res.status, json: JSON.parse(Buffer.from(res.body).toString('utf8')) as never };
    };
    const flights = JSON.stringify({ criteria: { origin: 'LIS', destination: 'MAD', departure_date: '2027-03-14', adults: 2 } });
    const first = await answer('flights', flights);
    const second = await answer('flights', flights);
    expect([first.status, second.status]).toEqual([200, 200]);
    const strip = (rs: Array<Record<string, unknown>>) => rs.map(({ quote_token: _t, quote_expires_at: _e, ...r }) => r);
    expect(strip(second.json.results!)).toEqual(strip(first.json.results!));
    expect(second.json.results![0]!.quote_token).not.toBe(first.json.results![0]!.quote_token);
    // The same text is no transfers search: judged for transfers, not taken from the flights one.
    const transfers = await answer('transfers', flights);
    expect([transfers.status, transfers.json.error?.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect((await answer('flights', flights)).status).toBe(200);
    const wrong = JSON.stringify({ criteria: { origin: 'LIS', destination: 'MAD', departure_date: '2027-03-14', adults: 0 } });
    expect((await answer('flights', wrong)).status).toBe(422);
    expect((await answer('flights', wrong)).status).toBe(422);
    clock.close();
  });
});

describe('the pipeline without a request log (a mock without its admin API)', () => {
  it('answers as one with a log, which alone keeps the requests', async () => {
    const clock = new MockClock();
    const log = new RequestLog();
    const logged = new ServicePipeline(newService(clock), log);
    const unlogged = new ServicePipeline(newService(clock), undefined);
    const body = JSON.stringify({ criteria: { origin: 'LIS', destination: 'MAD', departure_date: '2027-03-14', adults: 2 } });
    const forged = { ...searchRequest('flights', body), body: Buffer.from(body.replace('LIS', 'OPO')) };
    for (const req of [searchRequest('flights', body), forged]) {
      const [a, b] = [await logged.handle(req), await unlogged.handle({ ...req, headers: { ...req.headers } })];
      expect(b.status).toBe(a.status);
    }
    expect(log.list().map((e) => e.status)).toEqual([200, 401]);
    clock.close();
  });
});
