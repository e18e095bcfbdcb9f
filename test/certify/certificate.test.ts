import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPair, publicKeyPem } from '../../src/certify/certificate/signing.js';
import type { CertificateDraft } from '../../src/certify/certificate/types.js';
import { verifyCertificate } from '../../src/certify/certificate/verify-certificate.js';
import { writeCertificate } from '../../src/certify/certificate/write-certificate.js';
import { verifyCertificateCommand } from '../../src/cli/commands/verify-certificate.js';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { REDACTED } from '../../src/log/redacted.js';
import { HarnessError } from '../../src/errors/harness-error.js';
import { leaksUnder } from '../helpers/secret-grep.js';
import { secretFormsIn } from '../helpers/secret-scan.js';
import { certifyMock } from './_helpers.js';

let root: string;
let draft: CertificateDraft;
let secrets: string[];
let keys: { privateKeyFile: string; publicKeyFile: string; fingerprint: string };
let n = 0;

async function fresh(options: { sign?: boolean } = { sign: true }): Promise<string> {
  n += 1;
  const dir = path.join(root, `cert-${n}`);
  await writeCertificate(dir, draft, { secrets, ...(options.sign ? { signKey: await readFile(keys.privateKeyFile, 'utf8') } : {}) });
  return dir;
}

async function flipByte(file: string, at = 40): Promise<void> {
  const bytes = await readFile(file);
  bytes[at] = bytes[at]! ^ 0x01;
  await writeFile(file, bytes);
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'certify-'));
  keys = await generateSigningKeyPair(path.join(root, 'keys'));
  const run = await certifyMock();
  draft = run.draft;
  secrets = run.secrets;
  await run.close();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('certificate writer and verifier', () => {
  it('writes a granted, signed certificate that verifies with the pinned key', async () => {
    const dir = await fresh();
    const cert = JSON.parse(await readFile(path.join(dir, 'certificate.json'), 'utf8'));
    expect(cert).toMatchObject({
      schema: 'svc-harness/certificate@1',
      kind: 'service',
      plan: { id: 'svc-agency-cert', version: '1.1.0' },
      agency: 'agency-alpha',
      granted: true,
      skipped: [],
    });
    expect(cert.harness.version).toBe(JSON.parse(await readFile('package.json', 'utf8')).version);
    expect(cert.signing.public_key_sha256).toBe(keys.fingerprint);
    expect(cert.tests).toHaveLength(9);
    expect(cert.files.map((f: { file: string }) => f.file)).toContain('certificate.html');
    for (const t of cert.tests) for (const e of t.evidence) expect(cert.files.some((f: { file: string }) => f.file === e)).toBe(true);
    const pinned = await verifyCertificate(dir, { publicKeyPem: await readFile(keys.publicKeyFile) });
    expect(pinned).toMatchObject({ ok: true, signature: 'valid', signer: 'pinned', problems: [] });
    const included = await verifyCertificate(dir);
    expect(included.ok).toBe(true);
    expect(included.summary).toMatch(/included key .*pass --public-key to pin the signer/);
    const page = await readFile(path.join(dir, 'certificate.html'), 'utf8');
    expect(page).toContain('GRANTED');
    expect(page).toContain(cert.files[0].sha256);
  });

  it('never writes a secret: agency secret, webhook secret and hotel key are redacted everywhere', async () => {
    const dir = await fresh();
    let redacted = 0;
    // Plain, base64, base64url, URL-encoded and JSON-escaped: a body copy must not carry one past the guard.
    expect(await leaksUnder(dir, secrets)).toEqual([]);
    for (const file of await allFiles(dir)) {
      const text = await readFile(file, 'utf8');
      redacted += text.split(REDACTED).length - 1;
    }
    // The webhook endpoint answers carry the webhook secret: proof that redaction really happened.
    expect(redacted).toBeGreaterThan(0);
    const raw = JSON.stringify(draft);
    expect(secrets.some((s) => raw.includes(s))).toBe(true);
  });

  it('fails after one byte of an evidence file changes, naming the file', async () => {
    const dir = await fresh();
    await flipByte(path.join(dir, 'evidence', '05-CERT-05.json'));
    const v = await verifyCertificate(dir, { publicKeyPem: await readFile(keys.publicKeyFile) });
    expect(v.ok).toBe(false);
    expect(v.signature).toBe('valid');
    expect(v.problems[0]).toBe('changed file: evidence/05-CERT-05.json (SHA-256 does not match the certificate)');
  });

  it('fails with a bad signature after one byte of certificate.json changes', async () => {
    const dir = await fresh();
    const file = path.join(dir, 'certificate.json');
    const text = await readFile(file, 'utf8');
    // One byte, and the JSON stays valid: the signature alone must catch it.
    await writeFile(file, text.replace('"agency": "agency-alpha"', '"agency": "agency-alphb"'));
    const v = await verifyCertificate(dir);
    expect(v.ok).toBe(false);
    expect(v.signature).toBe('invalid');
    expect(v.problems[0]).toMatch(/^bad signature/);
    const dir2 = await fresh();
    await flipByte(path.join(dir2, 'certificate.json'), 3);
    const broken = await verifyCertificate(dir2);
    expect(broken.problems[0]).toMatch(/^bad signature/);
  });

  it('fails with another public key', async () => {
    const dir = await fresh();
    const other = publicKeyPem(generateKeyPairSync('ed25519').publicKey);
    const v = await verifyCertificate(dir, { publicKeyPem: other });
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(/^bad signature: .* with the given public key/);
  });

  it('fails when the included key is swapped for another signer', async () => {
    const dir = await fresh();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const { sign } = await import('node:crypto');
    const json = await readFile(path.join(dir, 'certificate.json'));
    await writeFile(path.join(dir, 'certificate.sig'), sign(null, json, privateKey).toString('base64'));
    await writeFile(path.join(dir, 'certificate.pub.pem'), publicKeyPem(publicKey));
    const v = await verifyCertificate(dir);
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(/not the one certificate.json names/);
  });

  it('fails on a missing or an extra file', async () => {
    const dir = await fresh();
    await rm(path.join(dir, 'evidence', '02-CERT-02.json'));
    await writeFile(path.join(dir, 'evidence', 'planted.json'), '{}');
    const v = await verifyCertificate(dir);
    expect(v.ok).toBe(false);
    expect(v.problems).toEqual(['missing file: evidence/02-CERT-02.json', 'extra file: evidence/planted.json (not in the certificate)']);
  });

  it('verifies an unsigned certificate as intact, but refuses it when a public key is required', async () => {
    const dir = await fresh({ sign: false });
    const v = await verifyCertificate(dir);
    expect(v).toMatchObject({ ok: true, signature: 'absent' });
    expect(v.summary).toMatch(/not signed/);
    const pinned = await verifyCertificate(dir, { publicKeyPem: await readFile(keys.publicKeyFile) });
    expect(pinned.ok).toBe(false);
    expect(pinned.problems[0]).toMatch(/certificate.sig is missing/);
  });

  it('refuses to write into a folder that already holds files, and redacts a secret in an encoded form instead of refusing', async () => {
    const dir = await fresh();
    await expect(writeCertificate(dir, draft)).rejects.toThrow(/not empty/);
    // Binary evidence is redacted like text, through its decoded views: base64 of a secret, a percent escape.
    const hidden = Buffer.from(Buffer.from(`xy${secrets[0]}x`).toString('base64'));
    const escaped = Buffer.from(`q=%${secrets[1]!.charCodeAt(0).toString(16)}${secrets[1]!.slice(1)}`);
    for (const [name, content] of [
      ['leaky', hidden],
      ['leaky-2', escaped],
    ] as const) {
      const leaky: CertificateDraft = { ...draft, tests: [{ ...draft.tests[0]!, evidence: [{ name: 'raw.bin', content }] }] };
      const written = await writeCertificate(path.join(root, name), leaky, { secrets });
      const raw = await readFile(path.join(written.dir, 'evidence', 'raw.bin'), 'utf8');
      expect(raw).toContain('[REDACTED]');
      for (const s of secrets) expect(secretFormsIn(raw, s)).toEqual([]);
    }
  });

  it('CLI: exit 0 with one line when intact, 1 naming the file when changed, 2 for a missing folder', async () => {
    const dir = await fresh();
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(`out ${l}`), err: (l: string) => lines.push(`err ${l}`) };
    expect(exitCodeOf(await verifyCertificateCommand({ dir, 'public-key': keys.publicKeyFile }, io))).toBe(0);
    await flipByte(path.join(dir, 'evidence', '09-CERT-08.json'), 100);
    expect(exitCodeOf(await verifyCertificateCommand({ dir, 'public-key': keys.publicKeyFile }, io))).toBe(1);
    // The valid one is described (kind, target, subject); the changed one is one line.
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^out certificate valid: (PRACTICE )?GRANTED/);
    expect(lines.slice(1, 4).map((l) => l.replace(/:.*/, ''))).toEqual(['out   kind', 'out   target', 'out   subject']);
    expect(lines[4]).toMatch(/^err certificate INVALID: changed file: evidence\/09-CERT-08.json/);
    const missing = verifyCertificateCommand({ dir: path.join(root, 'nope') }, io);
    await expect(missing).rejects.toBeInstanceOf(HarnessError);
    await expect(missing).rejects.toMatchObject({ exitCode: 2 });
  });
});
