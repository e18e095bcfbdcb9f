import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { readRegularFile } from '../../files/read-regular-file.js';

/** File names written by {@link generateSigningKeyPair}. */
const KEY_PAIR_FILES = Object.freeze({ private: 'certify-signing-key.pem', public: 'certify-signing-key.pub.pem' });

/** Parses an Ed25519 private key (PKCS#8 PEM); anything else is an E_USAGE error naming `source`. */
export function parseSigningKey(pem: string | Buffer, source = 'signing key'): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new HarnessError(
      'E_USAGE',
      `${source} is not a PEM private key (make one with: svc-harness certify --generate-key DIR, or openssl genpkey -algorithm ed25519)`,
      { cause: err },
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new HarnessError('E_USAGE', `${source} is a ${key.asymmetricKeyType ?? 'unknown'} key; certificates are signed with Ed25519`);
  return key;
}

/** Parses an Ed25519 public key (SPKI PEM), or derives it from a private key PEM. */
export function parsePublicKey(pem: string | Buffer, source = 'public key'): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (err) {
    throw new HarnessError('E_USAGE', `${source} is not a PEM public key`, { cause: err });
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new HarnessError('E_USAGE', `${source} is a ${key.asymmetricKeyType ?? 'unknown'} key; certificates are signed with Ed25519`);
  return key;
}

/** Largest PEM file read: a key is a few hundred bytes. */
const MAX_PEM_BYTES = 64 * 1024;

/** Reads a PEM file (a regular file of at most 64 KiB), with a one-line error naming it when it cannot be read. */
export async function readPemFile(file: string, what: string): Promise<string> {
  return (await readRegularFile(file, { maxBytes: MAX_PEM_BYTES, what })).toString('utf8');
}

/** The SPKI PEM of a public key. */
export function publicKeyPem(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return pub.export({ type: 'spki', format: 'pem' }).toString();
}

/** SHA-256 (hex) of a public key's DER SubjectPublicKeyInfo: a short name for the signer. */
export function publicKeyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Ed25519 signature of `data`, base64. */
export function signBytes(data: Uint8Array, privateKey: KeyObject): string {
  return sign(null, data, privateKey).toString('base64');
}

/** True when `signatureBase64` is a valid Ed25519 signature of `data` by `publicKey`. */
export function verifyBytes(data: Uint8Array, signatureBase64: string, publicKey: KeyObject): boolean {
  const text = signatureBase64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return false;
  try {
    return verify(null, data, publicKey, Buffer.from(text, 'base64'));
  } catch {
    return false;
  }
}

/**
 * Writes a new Ed25519 key pair into `dir` (private key readable by its owner
 * only); refuses to overwrite an existing key.
 */
export async function generateSigningKeyPair(dir: string): Promise<{ privateKeyFile: string; publicKeyFile: string; fingerprint: string }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privateKeyFile = path.join(dir, KEY_PAIR_FILES.private);
  const publicKeyFile = path.join(dir, KEY_PAIR_FILES.public);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600, flag: 'wx' });
    try {
      await writeFile(publicKeyFile, publicKeyPem(publicKey), { flag: 'wx' });
    } catch (err) {
      // The private key was ours a moment ago; never leave it unpaired beside someone's public key.
      await rm(privateKeyFile, { force: true });
      throw err;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new HarnessError('E_USAGE', `a signing key already exists in ${dir}; choose another folder`, { cause: err });
    throw new HarnessError('E_REPORT_WRITE', `cannot write the key pair into ${dir}: ${code ?? String(err)}`, { cause: err });
  }
  return { privateKeyFile, publicKeyFile, fingerprint: publicKeyFingerprint(publicKey) };
}
