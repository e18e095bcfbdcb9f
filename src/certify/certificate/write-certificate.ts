import { createHash, KeyObject } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { redactor, WITHHELD, type BytesRedact } from '../../profile/redactor.js';
import { findSecret } from '../../profile/secret-forms.js';
import type { Verdict } from '../../results/model.js';
import { toolInfo } from '../../runner/tool-info.js';
import { decideGrant, GRANT_RULE } from './grant.js';
import { renderCertificateHtml } from './render-certificate-html.js';
import { parseSigningKey, publicKeyFingerprint, publicKeyPem, signBytes } from './signing.js';
import {
  CERTIFICATE_FILES,
  CERTIFICATE_SCHEMA,
  PRACTICE_MEANING,
  type Certificate,
  type CertificateDraft,
  type CertifiedFile,
  type CertificateTest,
  type EvidenceDraft,
} from './types.js';

/** Options of {@link writeCertificate}. */
interface WriteCertificateOptions {
  /** Every secret that must never reach a file (agency secret, webhook secret, hotel key…): replaced by `[REDACTED]`; an evidence file that would still show one is withheld whole. */
  secrets?: readonly string[];
  /** Ed25519 private key (PEM text or key object) to sign `certificate.json` with. */
  signKey?: string | Buffer | KeyObject;
  /** The harness's name and version. @defaultValue from package.json */
  harness?: { name: string; version: string };
}

/** What {@link writeCertificate} wrote. */
export interface WrittenCertificate {
  dir: string;
  certificate: Certificate;
  /** Exact bytes of certificate.json (the signed bytes). */
  json: Buffer;
  /** Base64 Ed25519 signature, when signed. */
  signature?: string;
  /** Absolute paths of every file written. */
  files: string[];
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** SHA-256 of bytes, lower-case hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function encode(content: string | Uint8Array | object, redact: BytesRedact): Buffer {
  if (typeof content === 'string') return Buffer.from(redact(content), 'utf8');
  if (content instanceof Uint8Array) return redact.bytes(content);
  return Buffer.from(`${JSON.stringify(redact(content), null, 2)}\n`, 'utf8');
}

function assertNoSecret(bytes: Buffer, secrets: readonly string[], file: string): void {
  // Decoded forms too (base64, base64url, URL-encoded, JSON-escaped): a body copy must not smuggle a secret past the guard.
  const found = findSecret(bytes, secrets);
  if (found) throw new HarnessError('E_INTERNAL', `refusing to write ${file}: it would contain a secret (${found.form})`);
}

async function ensureEmptyDir(dir: string): Promise<void> {
  let entries: string[] = [];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new HarnessError('E_REPORT_WRITE', `cannot use ${dir} for the certificate: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
  if (entries.length > 0) throw new HarnessError('E_USAGE', `certificate folder ${dir} is not empty; a certificate must vouch for every file beside it`);
}

async function put(file: string, bytes: Buffer | string): Promise<void> {
  try {
    await writeFile(file, bytes);
  } catch (err) {
    throw new HarnessError('E_REPORT_WRITE', `cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
}

/**
 * Writes a certificate folder: the evidence files (secrets redacted),
 * `certificate.html`, `certificate.json` with the SHA-256 of every other file,
 * and, with a signing key, `certificate.sig` (base64 Ed25519 over the exact
 * bytes of certificate.json) and `certificate.pub.pem`. Used by both
 * `certify` and `certify-client`.
 */
export async function writeCertificate(dir: string, draft: CertificateDraft, options: WriteCertificateOptions = {}): Promise<WrittenCertificate> {
  const secrets = [...(options.secrets ?? [])];
  const redact = redactor(secrets);
  const signKey = options.signKey === undefined ? undefined : options.signKey instanceof KeyObject ? options.signKey : parseSigningKey(options.signKey);
  const seen = new Set<string>();
  const owners = [...draft.tests, { id: 'attachments', evidence: draft.attachments ?? [] }];
  for (const t of owners) {
    for (const e of t.evidence) {
      if (!SAFE_NAME.test(e.name)) throw new HarnessError('E_INTERNAL', `evidence file name ${JSON.stringify(e.name)} of ${t.id} is not a plain file name`);
      if (seen.has(e.name)) throw new HarnessError('E_INTERNAL', `evidence file name ${e.name} is used twice`);
      seen.add(e.name);
    }
  }
  await ensureEmptyDir(dir);
  await mkdir(path.join(dir, CERTIFICATE_FILES.evidenceDir), { recursive: true }).catch((err: unknown) => {
    throw new HarnessError('E_REPORT_WRITE', `cannot create ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  });

  const written: string[] = [];
  const files: CertifiedFile[] = [];
  const tests: CertificateTest[] = [];
  const writeEvidence = async (evidence: readonly EvidenceDraft[]): Promise<string[]> => {
    const names: string[] = [];
    for (const e of evidence) {
      const rel = `${CERTIFICATE_FILES.evidenceDir}/${e.name}`;
      let bytes = encode(e.content, redact);
      // Evidence that would still show a secret once redacted is withheld whole, and the certificate is written.
      if (findSecret(bytes, secrets)) bytes = Buffer.from(`${WITHHELD}\n`, 'utf8');
      const abs = path.join(dir, CERTIFICATE_FILES.evidenceDir, e.name);
      await put(abs, bytes);
      written.push(abs);
      files.push({ file: rel, sha256: sha256Hex(bytes), bytes: bytes.length, role: 'evidence' });
      names.push(rel);
    }
    return names;
  };
  for (const t of draft.tests) {
    const names = await writeEvidence(t.evidence);
    tests.push({
      id: t.id,
      title: t.title,
      ...(t.clause ? { clause: t.clause } : {}),
      required: t.required,
      verdict: t.verdict,
      message: redact(t.message),
      evidence: names,
    });
  }

  await writeEvidence(draft.attachments ?? []);

  const { granted, refusedBy, skipped } = decideGrant(draft.tests);
  const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: tests.length } as Record<Verdict, number> & { total: number };
  for (const t of tests) summary[t.verdict] += 1;
  const tool = options.harness ?? toolInfo();
  const certificate: Certificate = {
    schema: CERTIFICATE_SCHEMA,
    kind: draft.kind,
    plan: { ...draft.plan },
    harness: { name: tool.name, version: tool.version },
    target: redact({ ...draft.target }),
    agency: draft.agency,
    ...(draft.client && (draft.client.name !== undefined || draft.client.version !== undefined) ? { client: redact({ ...draft.client }) } : {}),
    // Against the embedded mock a grant proves the plan runs, nothing about a service: the certificate says so of itself.
    ...(draft.kind === 'service' && draft.target.embedded === true ? { practice: PRACTICE_MEANING } : {}),
    started_at: new Date(draft.startedAt).toISOString(),
    finished_at: new Date(draft.finishedAt).toISOString(),
    duration_ms: Math.max(0, Math.round(draft.finishedAt - draft.startedAt)),
    granted,
    rule: GRANT_RULE,
    refused_by: refusedBy,
    skipped,
    summary,
    tests,
    files,
    ...(signKey ? { signing: { algorithm: 'Ed25519' as const, public_key_sha256: publicKeyFingerprint(signKey) } } : {}),
    notes: redact([...(draft.notes ?? [])]),
  };

  // The page is rendered before its own hash is known, then vouched for like the evidence.
  const page = Buffer.from(renderCertificateHtml(certificate), 'utf8');
  assertNoSecret(page, secrets, CERTIFICATE_FILES.html);
  const htmlFile = path.join(dir, CERTIFICATE_FILES.html);
  await put(htmlFile, page);
  written.push(htmlFile);
  files.push({ file: CERTIFICATE_FILES.html, sha256: sha256Hex(page), bytes: page.length, role: 'report' });

  const json = Buffer.from(`${JSON.stringify(certificate, null, 2)}\n`, 'utf8');
  assertNoSecret(json, secrets, CERTIFICATE_FILES.json);
  const jsonFile = path.join(dir, CERTIFICATE_FILES.json);
  await put(jsonFile, json);
  written.push(jsonFile);

  let signature: string | undefined;
  if (signKey) {
    signature = signBytes(json, signKey);
    const sigFile = path.join(dir, CERTIFICATE_FILES.signature);
    const pubFile = path.join(dir, CERTIFICATE_FILES.publicKey);
    await put(sigFile, `${signature}\n`);
    await put(pubFile, publicKeyPem(signKey));
    written.push(sigFile, pubFile);
  }
  return { dir, certificate, json, ...(signature ? { signature } : {}), files: written };
}
