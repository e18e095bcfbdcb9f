import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRACTICE_MEANING, type CertificateDraft } from '../../src/certify/certificate/types.js';
import { verifyCertificate } from '../../src/certify/certificate/verify-certificate.js';
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

async function written(d: CertificateDraft) {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'svc-cert-')), 'certificate');
  const out = await writeCertificate(dir, d);
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
