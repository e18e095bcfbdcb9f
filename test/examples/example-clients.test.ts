import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { verifyCertificate } from '../../src/certify/certificate/verify-certificate.js';
import type { Certificate } from '../../src/certify/certificate/types.js';
import type { CertificationResult } from '../../src/results/run-result.js';

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function certify(
  client: string,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; dir: string; certificate: Certificate; report: CertificationResult }> {
  const reports = await mkdtemp(join(tmpdir(), 'svc-cc-'));
  const run = await runCli(['certify-client', '--run', `node --import tsx examples/${client}/main.ts`, '--timeout', '60', '--report-dir', reports, ...extra]);
  const dir = /certificate in (\S+)/.exec(run.stdout)?.[1];
  if (!dir) throw new Error(`no certificate folder in the output:\n${run.stdout}\n${run.stderr}`);
  const certificate = JSON.parse(await readFile(join(dir, 'certificate.json'), 'utf8')) as Certificate;
  const report = JSON.parse(await readFile(join(dir, '..', 'report.json'), 'utf8')) as CertificationResult;
  return { ...run, dir, certificate, report };
}

// Each case starts its own mock and client on free ports: they run side by side.
describe.concurrent('svc-harness certify-client with the example clients', () => {
  it('grants examples/agency-client: every item passes, and the signed certificate verifies', async () => {
    const keys = await mkdtemp(join(tmpdir(), 'svc-cc-key-'));
    expect((await runCli(['certify', '--generate-key', keys])).code).toBe(0);
    const r = await certify('agency-client', ['--sign-key', join(keys, 'certify-signing-key.pem')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('client certificate GRANTED (10 of 10 items passed)');
    expect(r.certificate.kind).toBe('client');
    expect(r.certificate.granted).toBe(true);
    expect(r.certificate.tests.map((t) => [t.id, t.verdict])).toEqual(
      ['CC-01', 'CC-02', 'CC-03', 'CC-04', 'CC-05', 'CC-06', 'CC-07', 'CC-08', 'CC-09', 'CC-10'].map((id) => [id, 'PASS']),
    );
    expect(r.report.cases.every((c) => c.kind === 'check' && c.verdict === 'PASS')).toBe(true);
    expect(r.report.verdict).toBe('PASS');
    expect(r.report.kind).toBe('certificate');
    // The secrets the client was given are neither printed nor written (each run's signing secret starts svc_cert_).
    expect(r.stdout).toContain("SVC_SECRET=(in the command's environment)");
    for (const file of await files(join(r.dir, '..'))) expect(await readFile(file, 'utf8'), file).not.toContain('svc_cert_');
    const pub = await readFile(join(keys, 'certify-signing-key.pub.pem'), 'utf8');
    const ok = await verifyCertificate(r.dir, { publicKeyPem: pub });
    expect(ok.problems).toEqual([]);
    expect(ok.signature).toBe('valid');
    // One changed byte of evidence is caught.
    const evidence = join(r.dir, r.certificate.tests[3]!.evidence[0]!);
    const text = await readFile(evidence, 'utf8');
    await writeFile(evidence, text.replace('"PASS"', '"FAIL"'));
    expect((await verifyCertificate(r.dir, { publicKeyPem: pub })).ok).toBe(false);
  });

  it('refuses examples/naive-client on exactly its faults, each named', async () => {
    const r = await certify('naive-client');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.certificate.granted).toBe(false);
    expect(r.certificate.refused_by).toEqual(['CC-02', 'CC-03', 'CC-04', 'CC-05', 'CC-06', 'CC-09', 'CC-10']);
    const verdicts = Object.fromEntries(r.certificate.tests.map((t) => [t.id, t.verdict]));
    expect(verdicts).toEqual({
      'CC-01': 'PASS',
      'CC-02': 'FAIL',
      'CC-03': 'FAIL',
      'CC-04': 'FAIL',
      'CC-05': 'FAIL',
      'CC-06': 'FAIL',
      'CC-07': 'PASS',
      'CC-08': 'PASS',
      'CC-09': 'FAIL',
      'CC-10': 'FAIL',
    });
    const why = Object.fromEntries(r.certificate.tests.map((t) => [t.id, t.message]));
    expect(why['CC-02']).toMatch(/before Retry-After \(1 s\) had passed; retried with another Idempotency-Key/);
    expect(why['CC-03']).toMatch(/writes? sent while a Retry-After was running/);
    expect(why['CC-04']).toContain('after a booking answered 502: 1 retry with a new Idempotency-Key');
    expect(why['CC-05']).toContain('after a booking cut off mid-response: 1 retry with a new Idempotency-Key');
    expect(why['CC-06']).toBe('after 410 QUOTE_EXPIRED: retried the expired quote 2 times; never searched transfers again');
    expect(why['CC-09']).toBe('accepted a delivery with a forged signature: answered 200');
    expect(why['CC-10']).toBe('accepted a delivery with a stale timestamp: answered 200');
    expect(r.stdout).toContain('client certificate REFUSED by CC-02, CC-03, CC-04, CC-05, CC-06, CC-09, CC-10:');
    expect((await verifyCertificate(r.dir)).ok).toBe(true);
  });
});
