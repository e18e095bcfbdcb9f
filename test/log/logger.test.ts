import { openSync, readFileSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { REDACTED } from '../../src/log/redacted.js';
import { createMock } from '../../src/mock/index.js';
import { MockClient } from '../helpers/mock-client.js';

function logFile(): { fd: number; read(): string[]; close(): void } {
  const path = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
  const fd = openSync(path, 'w');
  return { fd, read: () => readFileSync(path, 'utf8').split('\n').filter(Boolean), close: () => closeSync(fd) };
}

describe('logger', () => {
  it('writes JSON lines from its level up and redacts secrets and signatures', () => {
    const f = logFile();
    const log = createLogger({ level: 'info', fd: f.fd });
    log.debug('hidden');
    log.info(
      { req: { headers: { authorization: 'SVC-HMAC-SHA256 Credential=ak, Signature=abc', 'x-api-key': 'hk_1' } }, agency: { key_id: 'ak', secret: 's3cr3t' } },
      'shown',
    );
    f.close();
    const lines = f.read().map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'shown',
      req: { headers: { authorization: REDACTED, 'x-api-key': REDACTED } },
      agency: { key_id: 'ak', secret: REDACTED },
    });
  });

  it('lets the mock log each request at info, without headers or bodies', async () => {
    const f = logFile();
    const mock = await createMock({ logger: createLogger({ level: 'info', fd: f.fd }) });
    try {
      const alpha = new MockClient(mock, mock.agencies[0]!);
      expect((await alpha.get('/v1/account')).status).toBe(200);
    } finally {
      await mock.close();
      f.close();
    }
    const text = f.read().join('\n');
    expect(text).toContain('"url":"/v1/account"');
    expect(text).toContain('"statusCode":200');
    expect(text).not.toContain(mock.agencies[0]!.secret);
    expect(text).not.toMatch(/Signature=/);
  });
});
