/**
 * svc-harness: the public library API. The CLI is built on exactly this;
 * everything else under `src/` is internal and may change.
 */

// Run the suite against a target profile, or against the embedded mock.
export { createHarness, type Harness, type HarnessOptions, type HarnessRunOptions, type PreparedTarget } from './harness.js';
export type { RunEvent, RunListener } from './runner/run-events.js';
export type { Check, CheckContext, CheckOutcome, CheckUses, Need } from './checks/types.js';

// The reference mock.
export { createMock, type AgencyCredentials, type MockOptions, type RunningMock } from './mock/index.js';

// Target profiles.
export { loadProfile, resolveProfile } from './profile/index.js';
export type { Profile, ResolvedAgency } from './profile/types.js';

// The SVC-HMAC-SHA256 request signer.
export {
  SIGNING_SCHEME,
  buildStringToSign,
  freshNonce,
  parseAuthorization,
  signRequest,
  type ParsedAuthorization,
  type SignInput,
  type Signature,
} from './protocol/request-signature.js';

// What a run returns: one result type per kind of run, tagged by `kind`.
export type { Area, CaseResult, Verdict } from './results/model.js';
export type { RunResult, RunKind, SuiteResult, LoadRunResult, CertificationResult, CaseRunResult } from './results/run-result.js';
export type { LoadResult } from './results/load-result.js';
export type { SelftestResult } from './results/selftest-result.js';
export type { LoadOptions } from './load/load-on-target.js';
export type { Exchange } from './client/exchange.js';

// Report writers: a program writes the CLI's reports from any RunResult but a self-test's.
// `writeReports` writes report.json, junit.xml, summary.md and report.html into `<baseDir>/<runId>/`,
// points `<baseDir>/latest` at them and redacts every secret the process knows; each `render*`
// returns one file's text as is (redacting is the caller's part then).
export { writeReports, type WrittenReports } from './report/write-reports.js';
export { renderHtml } from './report/render-html.js';
export { renderJson } from './report/render-json.js';
export { renderJunit } from './report/render-junit.js';
export { renderMarkdown } from './report/render-markdown.js';

// The webhook receiver, for a test that watches deliveries itself.
export { startReceiver, type ReceivedDelivery, type Receiver, type ResponsePlan } from './receiver/index.js';

// Errors: every failure the library throws is a HarnessError with a stable code.
export { HarnessError, isHarnessError } from './errors/harness-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/codes.js';
