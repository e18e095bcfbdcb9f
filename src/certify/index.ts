/**
 * Certification: the versioned plan an agency runs with its own credentials,
 * and the certificate format (writer, verifier, Ed25519 signing) shared by
 * `certify` and `certify-client`.
 */
export * from './certificate/types.js';
export { decideGrant, GRANT_RULE } from './certificate/grant.js';
export { writeCertificate, sha256Hex, type WriteCertificateOptions, type WrittenCertificate } from './certificate/write-certificate.js';
export { verifyCertificate, type CertificateVerification, type VerifyCertificateOptions } from './certificate/verify-certificate.js';
export { renderCertificateHtml } from './certificate/render-certificate-html.js';
export {
  generateSigningKeyPair,
  parseSigningKey,
  parsePublicKey,
  publicKeyPem,
  publicKeyFingerprint,
  readPemFile,
  signBytes,
  verifyBytes,
  KEY_PAIR_FILES,
} from './certificate/signing.js';
export type { CertificationPlan, CertTest, CertOutcome, CertifyContext, CertifyState } from './plan/plan-types.js';
export { PLAN_V1 } from './plan/plan-v1.js';
export { certify, type CertifyOptions } from './certify.js';
export { runCertification, DEFAULT_MAX_WAIT_S, type RunCertificationOptions } from './run-certification.js';
export { startEmbeddedTarget, profileForMock, EMBEDDED_CERTIFY_MOCK, EMBEDDED_DEFAULT_AGENCY } from './embedded-target.js';
