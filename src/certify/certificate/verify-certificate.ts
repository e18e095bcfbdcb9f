import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError, isHarnessError } from '../../errors/harness-error.js';
import { readRegularFile } from '../../files/read-regular-file.js';
import { parsePublicKey, publicKeyFingerprint, verifyBytes } from './signing.js';
import { CERTIFICATE_FILES, CERTIFICATE_SCHEMA, type Certificate } from './types.js';
import { sha256Hex } from './write-certificate.js';

/** Options of {@link verifyCertificate}. */
interface VerifyCertificateOptions {
  /** PEM of the public key the signer is expected to hold (pins the signer). Without it, the key written beside the certificate is used. */
  publicKeyPem?: string | Buffer;
}

/** The outcome of verifying a certificate folder. */
interface CertificateVerification {
  /** True when every file matches its SHA-256, none is missing or extra, and the signature (when present, or when a key was given) is valid. */
  ok: boolean;
  /** Every problem found, the first one first (hash mismatches in the certificate's file order). */
  problems: string[];
  /** `valid`, `invalid`, or `absent` (the certificate is not signed). */
  signature: 'valid' | 'invalid' | 'absent';
  /** Whose key the signature was checked with: the one given (`pinned`), the one in the folder (`included`), or none. */
  signer: 'pinned' | 'included' | 'none';
  /** SHA-256 of the key the signature was checked with. */
  publicKeySha256?: string;
  /** The parsed certificate, when certificate.json could be parsed. */
  certificate?: Certificate;
  /** What the certificate is, when certificate.json could be parsed. */
  identity?: CertificateIdentity;
  /** One line for a person. */
  summary: string;
}

/** What a certificate is: practice or real, what it was earned against, and whom it certifies. */
interface CertificateIdentity {
  /** `practice`: a service certificate earned against the mock bundled with the harness, which certifies nothing about a service. */
  kind: 'practice' | 'real';
  /** What it was earned against, in words (`https://staging.example.com/v1 (profile staging)`). */
  target: string;
  /** Whom it certifies: the agency, or the client (name and version as the agency gave them) and its agency. */
  subject: string;
}

/** Whether a certificate is a practice one: it says so, or its service target is the embedded mock. */
function isPracticeCertificate(c: Pick<Certificate, 'kind' | 'practice' | 'target'>): boolean {
  return c.practice !== undefined || (c.kind === 'service' && c.target?.embedded === true);
}

/** What a certificate is, in words a person checking it needs: {@link CertificateIdentity}. */
function certificateIdentity(c: Certificate): CertificateIdentity {
  const practice = isPracticeCertificate(c);
  const t = c.target ?? {};
  const base = typeof t.base_url === 'string' ? t.base_url : 'an unnamed target';
  let target: string;
  if (practice) target = `the mock bundled with the harness (${base})`;
  else if (c.kind === 'client') target = `the mock in certification mode at ${base}${typeof t.mode === 'string' ? `, mode ${t.mode}` : ''}`;
  else target = `${base}${typeof t.profile === 'string' ? ` (profile ${t.profile})` : ''}`;
  let subject = `agency ${c.agency}`;
  if (c.kind === 'client') {
    const name = c.client?.name ?? 'an unnamed client';
    subject = `client ${name}${c.client?.version !== undefined ? ` version ${c.client.version}` : ', no version given'}, of agency ${c.agency}`;
  }
  return { kind: practice ? 'practice' : 'real', target, subject };
}

async function listFiles(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(root, name)));
    else out.push(name);
  }
  return out;
}

/** Largest certificate.json read. */
const MAX_CERTIFICATE_BYTES = 16 * 1024 * 1024;
/** Largest signature or key file read. */
const MAX_KEY_BYTES = 64 * 1024;
/** Largest listed file read (evidence is cut at 64 KiB a body; a page of many tests stays far below this). */
const MAX_LISTED_BYTES = 64 * 1024 * 1024;

/** A file of the certificate folder, or undefined when absent; only a regular file under `maxBytes` is read (a FIFO or a link to a device is refused). */
async function readOptional(file: string, maxBytes: number): Promise<Buffer | undefined> {
  if ((await stat(file).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : null))) === undefined) return undefined;
  return readRegularFile(file, { maxBytes, what: 'certificate file' });
}

function isCertificate(v: unknown): v is Certificate {
  const c = v as Partial<Certificate> | null;
  return typeof c === 'object' && c !== null && c.schema === CERTIFICATE_SCHEMA && Array.isArray(c.files) && Array.isArray(c.tests);
}

/**
 * Verifies a certificate folder: the Ed25519 signature over the exact bytes of
 * certificate.json (when signed or when a key is given), then the SHA-256 of
 * every listed file, and that no file is missing or extra. A folder that does
 * not exist, or holds no certificate.json, is an E_FILE_UNREADABLE error.
 */
export async function verifyCertificate(dir: string, options: VerifyCertificateOptions = {}): Promise<CertificateVerification> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new HarnessError('E_FILE_UNREADABLE', `certificate folder ${dir} does not exist`);
  if (!info.isDirectory())
    throw new HarnessError('E_FILE_UNREADABLE', `${dir} is not a folder (pass the certificate folder, the one holding ${CERTIFICATE_FILES.json})`);
  const json = await readOptional(path.join(dir, CERTIFICATE_FILES.json), MAX_CERTIFICATE_BYTES);
  if (!json) throw new HarnessError('E_FILE_UNREADABLE', `${dir} holds no ${CERTIFICATE_FILES.json}`);

  const problems: string[] = [];
  const pinned = options.publicKeyPem !== undefined ? parsePublicKey(options.publicKeyPem, 'the --public-key file') : undefined;
  const sigBytes = await readOptional(path.join(dir, CERTIFICATE_FILES.signature), MAX_KEY_BYTES);
  const includedPem = await readOptional(path.join(dir, CERTIFICATE_FILES.publicKey), MAX_KEY_BYTES);
  let signature: CertificateVerification['signature'] = 'absent';
  let signer: CertificateVerification['signer'] = 'none';
  let publicKeySha256: string | undefined;

  if (sigBytes === undefined) {
    if (pinned) problems.push(`${CERTIFICATE_FILES.signature} is missing, but a public key was given: the certificate is not signed`);
  } else {
    let key = pinned;
    signer = pinned ? 'pinned' : 'included';
    if (!key && includedPem) {
      try {
        key = parsePublicKey(includedPem, CERTIFICATE_FILES.publicKey);
      } catch {
        problems.push(`${CERTIFICATE_FILES.publicKey} is not an Ed25519 public key`);
      }
    } else if (!key) {
      problems.push(`${CERTIFICATE_FILES.signature} is present but there is no key to check it with: pass --public-key`);
    }
    if (key) {
      publicKeySha256 = publicKeyFingerprint(key);
      signature = verifyBytes(json, sigBytes.toString('utf8'), key) ? 'valid' : 'invalid';
      if (signature === 'invalid') {
        problems.push(
          `bad signature: ${CERTIFICATE_FILES.signature} does not verify over ${CERTIFICATE_FILES.json} with ${pinned ? 'the given public key' : `the included ${CERTIFICATE_FILES.publicKey}`}`,
        );
      }
    } else {
      signature = 'invalid';
    }
  }

  let certificate: Certificate | undefined;
  try {
    const parsed: unknown = JSON.parse(json.toString('utf8'));
    if (isCertificate(parsed)) certificate = parsed;
    else problems.push(`${CERTIFICATE_FILES.json} is not a ${CERTIFICATE_SCHEMA} certificate`);
  } catch {
    problems.push(`${CERTIFICATE_FILES.json} is not valid JSON`);
  }

  if (certificate) {
    if (signature === 'valid' && certificate.signing && publicKeySha256 !== certificate.signing.public_key_sha256) {
      problems.push(`the signing key is not the one ${CERTIFICATE_FILES.json} names (public_key_sha256 ${certificate.signing.public_key_sha256})`);
    }
    if (sigBytes === undefined && certificate.signing)
      problems.push(`${CERTIFICATE_FILES.json} says it is signed, but ${CERTIFICATE_FILES.signature} is missing`);
    const present = new Set(await listFiles(dir));
    const listed = new Set<string>();
    for (const f of certificate.files) {
      if (typeof f !== 'object' || f === null || typeof f.file !== 'string' || typeof f.sha256 !== 'string') {
        problems.push(`${CERTIFICATE_FILES.json} lists a file without a name and SHA-256`);
        continue;
      }
      listed.add(f.file);
      if (!present.has(f.file) || f.file.includes('..')) {
        problems.push(`missing file: ${f.file}`);
        continue;
      }
      // The harness writes every listed file as a regular file: a link (even to an identical file) is a certificate changed by someone else.
      if ((await lstat(path.join(dir, f.file)).catch(() => undefined))?.isSymbolicLink()) {
        problems.push(`changed file: ${f.file} (it is a symbolic link, which the harness never writes)`);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await readRegularFile(path.join(dir, f.file), { maxBytes: MAX_LISTED_BYTES, what: 'certificate file' });
      } catch (err) {
        // A listed file the harness could not have written (a FIFO, a link to a device, a huge file) is a changed certificate, not a reason to stop.
        if (!isHarnessError(err)) throw err;
        problems.push(`changed file: ${f.file} (${err.message.replace(/^cannot read certificate file [^:]*: /, '')})`);
        continue;
      }
      if (sha256Hex(bytes) !== f.sha256) problems.push(`changed file: ${f.file} (SHA-256 does not match the certificate)`);
    }
    const own = new Set<string>([CERTIFICATE_FILES.json, CERTIFICATE_FILES.signature, CERTIFICATE_FILES.publicKey]);
    for (const f of [...present].sort()) if (!listed.has(f) && !own.has(f)) problems.push(`extra file: ${f} (not in the certificate)`);
    for (const t of certificate.tests) {
      for (const e of Array.isArray(t?.evidence) ? t.evidence : [])
        if (!listed.has(e)) problems.push(`test ${String(t.id)} cites ${String(e)}, which the certificate does not list`);
    }
  }

  const ok = problems.length === 0;
  let summary: string;
  if (!ok) summary = `certificate INVALID: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
  else {
    const practice = isPracticeCertificate(certificate!) ? 'PRACTICE ' : '';
    const what = `${practice}${certificate!.granted ? 'GRANTED' : 'REFUSED'} certificate of ${certificate!.plan.id} ${certificate!.plan.version} for ${certificate!.agency}`;
    const files = `${certificate!.files.length} files match their SHA-256`;
    if (signature === 'absent') summary = `certificate intact: ${what}; ${files}; not signed`;
    else if (signer === 'pinned') summary = `certificate valid: ${what}; ${files}; signature valid for the given key ${publicKeySha256!.slice(0, 16)}…`;
    else
      summary = `certificate valid: ${what}; ${files}; signature valid for the included key ${publicKeySha256!.slice(0, 16)}…; pass --public-key to pin the signer`;
  }
  return {
    ok,
    problems,
    signature,
    signer,
    ...(publicKeySha256 ? { publicKeySha256 } : {}),
    ...(certificate ? { certificate, identity: certificateIdentity(certificate) } : {}),
    summary,
  };
}
