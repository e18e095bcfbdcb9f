import type { Area, Verdict } from '../../results/model.js';

/** Schema tag of every certificate the harness writes. */
export const CERTIFICATE_SCHEMA = 'svc-harness/certificate@1';

/** Names of the files a certificate folder holds beside its evidence. */
export const CERTIFICATE_FILES = Object.freeze({
  json: 'certificate.json',
  html: 'certificate.html',
  signature: 'certificate.sig',
  publicKey: 'certificate.pub.pem',
  evidenceDir: 'evidence',
});

/** Which certification produced the certificate: an agency against a service (part 1), or an agency's client graded by the mock (part 2). */
export type CertificateKind = 'service' | 'client';

/** The versioned plan a certificate was earned under. */
export interface PlanRef {
  id: string;
  version: string;
  title: string;
}

/** A piece of evidence handed to the writer; `content` is written as is (string, bytes) or as pretty JSON (anything else). */
export interface EvidenceDraft {
  /** File name inside `evidence/`, e.g. `CERT-05-idempotent-retry.json`; `[A-Za-z0-9._-]` only. */
  name: string;
  content: string | Uint8Array | object;
}

/** One test of a plan, as run, before it is written. */
export interface TestDraft {
  id: string;
  title: string;
  /** What promise of the interface it proves (free text, e.g. `SPEC §4 idempotency`). */
  clause?: string;
  /** A required test must PASS for the certificate to be granted; any test that FAILs or ERRORs refuses it. */
  required: boolean;
  /** The area of the specification it proves, for the run's reports (certificate.json does not record it). */
  area?: Area;
  verdict: Verdict;
  /** One sentence: why this verdict (for a SKIP, why the test was not run). */
  message: string;
  evidence: EvidenceDraft[];
}

/** Everything the writer needs to produce a certificate. */
export interface CertificateDraft {
  kind: CertificateKind;
  plan: PlanRef;
  /** What was certified against: for `service`, `base_url`, `profile` and `embedded`; a client certificate says what fits it. */
  target: Record<string, string | number | boolean | null>;
  /** The agency id. */
  agency: string;
  /** The client graded (client certificates): its name and version as the agency gives them. */
  client?: ClientIdentity | undefined;
  /** ms since the epoch (real time). */
  startedAt: number;
  finishedAt: number;
  tests: TestDraft[];
  /** Evidence no single test owns (set-up and tidy-up exchanges); vouched for like the rest. */
  attachments?: EvidenceDraft[];
  notes?: string[];
}

/** A client as the agency names it (`--client-name`, `--client-version`). */
export interface ClientIdentity {
  name?: string | undefined;
  version?: string | undefined;
}

/** What a practice certificate says of itself: earned against the mock bundled with the harness, it certifies nothing about a service. */
export const PRACTICE_MEANING =
  'a practice run against the mock bundled with the harness: it shows the agency how certification goes, and certifies nothing about any service; certify against the service itself (--target) for a certificate that counts';

/** One test as the certificate records it: its draft, with the evidence as file paths. */
export interface CertificateTest extends Omit<TestDraft, 'evidence'> {
  /** Paths of its evidence files, relative to the certificate folder (`evidence/…`). */
  evidence: string[];
}

/** One file the certificate vouches for, with its SHA-256 (lower-case hex). */
export interface CertifiedFile {
  file: string;
  sha256: string;
  bytes: number;
  role: 'evidence' | 'report';
}

/** The contents of `certificate.json`. */
export interface Certificate {
  schema: typeof CERTIFICATE_SCHEMA;
  kind: CertificateKind;
  plan: PlanRef;
  harness: { name: string; version: string };
  target: Record<string, string | number | boolean | null>;
  agency: string;
  /** The client graded, as the agency named it (client certificates given `--client-name` or `--client-version`). */
  client?: ClientIdentity;
  /** Present on a service certificate earned against the embedded mock: what such a certificate means ({@link PRACTICE_MEANING}). */
  practice?: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  granted: boolean;
  /** The rule `granted` follows, in words. */
  rule: string;
  /** Ids of the tests that kept the certificate from being granted (empty when granted). */
  refused_by: string[];
  /** Ids of the tests that were not run. */
  skipped: string[];
  summary: Record<Verdict, number> & { total: number };
  tests: CertificateTest[];
  /** Every file of the folder except certificate.json and its signature files, with its SHA-256. */
  files: CertifiedFile[];
  /** Present when the certificate is signed: the algorithm and the SHA-256 of the signer's public key (DER SubjectPublicKeyInfo). */
  signing?: { algorithm: 'Ed25519'; public_key_sha256: string };
  notes: string[];
}
