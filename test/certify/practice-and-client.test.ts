import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRACTICE_MEANING, type CertificateDraft } from '../../src/certify/certificate/types.js';
import { verifyCertificate } from '../../src/certify/certificate/verify-certificate.js';
import { verifyCertificateCommand } from '../../src/cli/commands/verify-certificate.js';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { generateSigningKeyPair } from '../../src/certify/certificate/signing.js';
import { writeCertificate } from '../../src/certify/certificate/write-certificate.js';

function draft(kind: CertificateDraft['kind'], target: CertificateDraft['target'], extra: Partial<CertificateDraft> = {}): CertificateDraft {
  return {
    kind,
    plan: { id: 'svc-agency-cert', version: '1', title: 'Agency certification' },
    target,
    agency: 'agency-alpha',
    startedAt: 1_800_000_000_000,
    finishedAt: 1_800_000_003_500,
    tests: [{ id: 'CERT-01', title: 'signed requests are accepted', required: true, verdict: 'PASS', message: 'accepted', evidence: [] }],
    ...extra,
  };
}

async function written(d: CertificateDraft, signKey?: string) {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'svc-cert-')), 'certificate');
  const out = await writeCertificate(dir, d, signKey !== undefined ? { signKey } : {});
  return {
    dir,
    certificate: out.certificate,
    page: await readFile(path.join(dir, 'certificate.html'), 'utf8'),
    json: JSON.parse(await readFile(path.join(dir, 'certificate.json'), 'utf8')) as Record<string, unknown>,
  };
}

describe('a certificate earned against the embedded mock', () => {
  it('is marked a practice run in certificate.json and on the page, never a plain green GRANTED', async () => {
    const { dir, json, page } = await written(draft('service', { base_url: 'http://127.0.0.1:1/v1', profile: 'reference', embedded: true }));
    expect(json.granted).toBe(true);
    expect(json.practice).toBe(PRACTICE_MEANING);
    expect(page).toContain('<span class="practice-tag">PRACTICE</span><strong>GRANTED</strong>');
    expect(page).toContain('<p class="practice">PRACTICE RUN: a practice run against the mock bundled with the harness');
    expect(page).toContain('<title>PRACTICE GRANTED');
    expect(page).not.toContain('class="verdict verdict-pass"');
    expect((await verifyCertificate(dir)).ok).toBe(true);
  });

  it('is not marked against a real service', async () => {
    const { json, page } = await written(draft('service', { base_url: 'https://staging.example.com/v1', profile: 'staging', embedded: false }));
    expect(json).not.toHaveProperty('practice');
    expect(page).toContain('class="verdict verdict-pass"');
    expect(page).not.toContain('PRACTICE');
  });
});

describe('a client certificate', () => {
  it('names the client by the name and version the agency gave', async () => {
    const { json, page } = await written(
      draft('client', { base_url: 'http://127.0.0.1:1/v1', mode: 'run', command: 'node client.js' }, { client: { name: 'acme-booking', version: '2.4.1' } }),
    );
    expect(json.client).toEqual({ name: 'acme-booking', version: '2.4.1' });
    expect(json).not.toHaveProperty('practice');
    expect(page).toContain('<dt>Client</dt><dd>acme-booking, version 2.4.1</dd>');
  });
});

/** `verify-certificate DIR --public-key KEY [--require-real]` on a signed certificate of `d`: its exit code and what it printed. */
async function verified(d: CertificateDraft, requireReal = false): Promise<{ code: number; lines: string[] }> {
  const keys = await generateSigningKeyPair(await mkdtemp(path.join(tmpdir(), 'svc-cert-keys-')));
  const { dir } = await written(d, await readFile(keys.privateKeyFile, 'utf8'));
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const outcome = await verifyCertificateCommand({ dir, 'public-key': keys.publicKeyFile, ...(requireReal ? { 'require-real': true } : {}) }, io);
  return { code: exitCodeOf(outcome), lines };
}

describe('verify-certificate says what a certificate is', () => {
  const practice = draft('service', { base_url: 'http://127.0.0.1:1/v1', profile: 'reference', embedded: true });
  const real = draft('service', { base_url: 'https://staging.example.com/v1', profile: 'staging', embedded: false });

  it('a practice certificate: PRACTICE in its line, then the kind, the bundled mock as target, the agency as subject', async () => {
    const { code, lines } = await verified(practice);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^certificate valid: PRACTICE GRANTED certificate of svc-agency-cert 1 for agency-alpha/);
    expect(lines[1]).toMatch(/^ {2}kind: PRACTICE \(a practice run against the mock bundled with the harness/);
    expect(lines[2]).toBe('  target: the mock bundled with the harness (http://127.0.0.1:1/v1)');
    expect(lines[3]).toBe('  subject: agency agency-alpha');
  });

  it('--require-real: exit 1 for a practice certificate, 0 for a real one', async () => {
    const refused = await verified(practice, true);
    expect(refused.code).toBe(1);
    expect(refused.lines[0]).toMatch(/PRACTICE GRANTED .*--require-real: a practice certificate certifies nothing about any service/);
    const accepted = await verified(real, true);
    expect(accepted.code).toBe(0);
    expect(accepted.lines[0]).not.toContain('PRACTICE');
    expect(accepted.lines.slice(1)).toEqual(['  kind: real', '  target: https://staging.example.com/v1 (profile staging)', '  subject: agency agency-alpha']);
  });

  it("a client certificate names the client's name and version as its subject", async () => {
    const client = draft(
      'client',
      { base_url: 'http://127.0.0.1:1/v1', mode: 'run', command: 'node client.js' },
      { client: { name: 'acme-booking', version: '2.4.1' } },
    );
    const { code, lines } = await verified(client, true);
    expect(code).toBe(0);
    expect(lines.slice(1)).toEqual([
      '  kind: real',
      '  target: the mock in certification mode at http://127.0.0.1:1/v1, mode run',
      '  subject: client acme-booking version 2.4.1, of agency agency-alpha',
    ]);
  });
});
