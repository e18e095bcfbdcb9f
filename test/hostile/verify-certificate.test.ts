import { rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSigningKeyPair } from '../../src/certify/certificate/signing.js';
import { writeCertificate } from '../../src/certify/certificate/write-certificate.js';
import { runCli } from '../helpers/run-cli.js';
import { fifo, GRANTED_DRAFT, tempDir } from './_files.js';

const root = tempDir('svc-hostile-cert-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
async function certificate(sign: 'none' | 'own'): Promise<{ dir: string; pub?: string }> {
  n += 1;
  const dir = path.join(root, `cert-${n}`);
  if (sign === 'none') {
    await writeCertificate(dir, GRANTED_DRAFT);
    return { dir };
  }
  const keys = await generateSigningKeyPair(path.join(root, `keys-${n}`));
  await writeCertificate(dir, GRANTED_DRAFT, { signKey: await readFile(keys.privateKeyFile, 'utf8') });
  return { dir, pub: keys.publicKeyFile };
}

describe('verify-certificate answers 0 only for a certificate signed by the key given', () => {
  it('a forged, unsigned GRANTED certificate: intact, yet exit 2 saying no signer was pinned; its page says it is not signed', async () => {
    const { dir } = await certificate('none');
    const run = await runCli(['verify-certificate', dir]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    // One verdict line, then what the certificate is (kind, target, subject), nothing else.
    const lines = run.stderr.trim().split('\n');
    expect(lines.slice(1).map((l) => l.replace(/:.*/, ''))).toEqual(['  kind', '  target', '  subject']);
    expect(run.stderr).toMatch(
      /^certificate intact: GRANTED .*not signed; but no signer was pinned: exit 0 means this certificate was signed by the key you trust/,
    );
    const page = await readFile(path.join(dir, 'certificate.html'), 'utf8');
    expect(page).toContain('<strong>Not signed.</strong>');
  });

  it("a self-signed certificate (its own key beside it): exit 2 without --public-key, 0 with the signer's key, 1 with another key", async () => {
    const { dir, pub } = await certificate('own');
    const unpinned = await runCli(['verify-certificate', dir]);
    expect(unpinned.code).toBe(2);
    expect(unpinned.stderr).toMatch(/signature valid for the included key .*; but no signer was pinned/);
    expect((await readFile(path.join(dir, 'certificate.html'), 'utf8')).includes('<strong>Not signed.</strong>')).toBe(false);
    const pinned = await runCli(['verify-certificate', dir, '--public-key', pub!]);
    expect(pinned.code).toBe(0);
    const other = await generateSigningKeyPair(path.join(root, 'other-keys'));
    const wrong = await runCli(['verify-certificate', dir, '--public-key', other.publicKeyFile]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/certificate INVALID: bad signature/);
  });
});

describe('verify-certificate reads only regular files of a bounded size', () => {
  it('a listed evidence file replaced by a FIFO: INVALID naming it, no hang', async () => {
    const { dir, pub } = await certificate('own');
    const evidence = path.join(dir, 'evidence', '01-CERT-01.json');
    unlinkSync(evidence);
    fifo(path.dirname(evidence), '01-CERT-01.json');
    const run = await runCli(['verify-certificate', dir, '--public-key', pub!]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/certificate INVALID: changed file: evidence\/01-CERT-01\.json \(it is a named pipe \(FIFO\), not a regular file\)/);
  });

  it('a listed file that is a symlink to /dev/zero: INVALID naming it, memory untouched', async () => {
    const { dir, pub } = await certificate('own');
    const page = path.join(dir, 'certificate.html');
    unlinkSync(page);
    symlinkSync('/dev/zero', page);
    const run = await runCli(['verify-certificate', dir, '--public-key', pub!]);
    expect(run.code).toBe(1);
    // A link is refused as a link, before what it points at is opened.
    expect(run.stderr).toMatch(/changed file: certificate\.html \(it is a symbolic link, which the harness never writes\)/);
  });

  it('certificate.json, the signature or --public-key as a FIFO or device: exit 2 naming the file', async () => {
    const { dir, pub } = await certificate('own');
    const json = path.join(dir, 'certificate.json');
    unlinkSync(json);
    fifo(dir, 'certificate.json');
    const run = await runCli(['verify-certificate', dir, '--public-key', pub!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot read certificate file .*certificate\.json: it is a named pipe \(FIFO\), not a regular file/);

    const second = await certificate('own');
    const sig = path.join(second.dir, 'certificate.sig');
    unlinkSync(sig);
    symlinkSync('/dev/zero', sig);
    const zero = await runCli(['verify-certificate', second.dir, '--public-key', second.pub!]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/certificate\.sig: it is a device, not a regular file/);

    const key = await runCli(['verify-certificate', second.dir, '--public-key', fifo(root, 'key.pem')]);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/cannot read public key .*key\.pem: it is a named pipe/);
  });

  it('a listed file grown past the cap: INVALID without reading it whole', async () => {
    const { dir, pub } = await certificate('own');
    // Sparse: 65 MiB on paper, nothing on disk.
    const evidence = path.join(dir, 'evidence', '01-CERT-01.json');
    writeFileSync(evidence, '');
    await (await import('node:fs/promises')).truncate(evidence, 65 * 1024 * 1024);
    const run = await runCli(['verify-certificate', dir, '--public-key', pub!]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/changed file: evidence\/01-CERT-01\.json \(it is 65 MiB, more than the 64 MiB accepted\)/);
  });
});
