import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyEvidence, EVIDENCE_BODY_BYTES } from '../../src/client/body-capture.js';
import { createLogger } from '../../src/log/logger.js';
import { redactWrites } from '../../src/log/redacting-writes.js';
import { parseOpenApiText } from '../../src/openapi/load-document.js';
import { knownSecretsRedactor, rememberSecrets } from '../../src/profile/known-secrets.js';
import { secretFormsIn } from '../helpers/secret-scan.js';

const SECRET = 'sk_edge/Cut+ByTheLimit=0123456789abcdefXY';
rememberSecrets([SECRET]);

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('secrets at the edges of what the harness writes and prints', () => {
  it('a secret cut by the evidence limit is redacted before the cut, not kept in part', () => {
    for (const kept of [38, 20, 4]) {
      const whole = Buffer.from(`${'x'.repeat(EVIDENCE_BODY_BYTES - kept)}${SECRET}${'y'.repeat(500)}`);
      const ev = bodyEvidence(whole);
      expect(ev.truncated).toBe(true);
      expect(ev.kept.length).toBeLessThanOrEqual(EVIDENCE_BODY_BYTES);
      expect(ev.body.endsWith(SECRET.slice(0, kept)), `${kept} characters kept`).toBe(false);
      // The hash and size still describe the whole body as it came.
      expect(ev.bytes).toBe(whole.length);
    }
    // Base64 of the secret cut by the limit as well.
    const b64 = Buffer.from(SECRET).toString('base64');
    const ev = bodyEvidence(Buffer.from(`${'x'.repeat(EVIDENCE_BODY_BYTES - 30)}${b64}${'y'.repeat(100)}`));
    expect(ev.body.endsWith(b64.slice(0, 30))).toBe(false);
  });

  it('a syntax error in an OpenAPI document does not quote the offending line', () => {
    const yaml = `openapi: 3.0.3\ninfo: {title: t, version: "1"}\nx-key: "${SECRET}" bad: [\n`;
    const json = `{"openapi": "3.0.3", "x-key": "${SECRET}" "oops": 1}`;
    for (const text of [yaml, json]) {
      let message = '';
      try {
        parseOpenApiText(text, 'doc.yaml');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/cannot parse OpenAPI document doc\.yaml/);
      expect(secretFormsIn(message, SECRET), message).toEqual([]);
    }
  });

  it('the logs redact a secret a target echoed into any field (a Retry-After)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-edge-log-'));
    dirs.push(dir);
    const file = path.join(dir, 'log.jsonl');
    const fd = openSync(file, 'w');
    const log = createLogger({ level: 'info', fd, redactLine: (line) => knownSecretsRedactor()(line) });
    log.info({ retryAfter: SECRET, header: `Retry-After: ${Buffer.from(SECRET).toString('hex')}` }, `429 with Retry-After ${encodeURIComponent(SECRET)}`);
    log.flush();
    closeSync(fd);
    const written = await readFile(file, 'utf8');
    expect(written).toContain('[REDACTED]');
    expect(secretFormsIn(written, SECRET)).toEqual([]);
    // Still one JSON object per line.
    expect(() => JSON.parse(written.trim())).not.toThrow();
  });

  it('the console redacts whatever a printer writes', () => {
    const chunks: string[] = [];
    const stream = { write: (chunk: unknown) => chunks.push(String(chunk)) > 0 } as unknown as NodeJS.WriteStream;
    redactWrites(stream, (t) => knownSecretsRedactor()(t));
    stream.write(`FAIL RL-03 retry-after is "${SECRET}"\n`);
    stream.write(Buffer.from(`code ${Buffer.from(SECRET).toString('base64url')}\n`));
    expect(chunks.join('')).toContain('[REDACTED]');
    expect(secretFormsIn(chunks.join(''), SECRET)).toEqual([]);
  });
});
