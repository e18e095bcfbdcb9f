/**
 * svc-harness: the public library API. The CLI is built on exactly this.
 */
export { createHarness, type Harness, type HarnessOptions, type HarnessRunOptions, type PreparedTarget } from './harness.js';
export { createMock, type MockOptions, type RunningMock, type AgencyCredentials } from './mock/index.js';

/** The SVC-HMAC-SHA256 request signer. */
export * as signer from './client/signer.js';
export { signRequest, parseAuthorization, buildStringToSign, SIGNING_SCHEME } from './client/signer.js';

export { createTargetApi, createHotelApi } from './api/index.js';
export type { ApiResponse, CallOptions, HotelApi, Offer, RateLimitInfo, StatementEntry, TargetApi } from './api/types.js';
export { MemoryRecorder, type Exchange, type ExchangeRecorder } from './client/exchange.js';

export { DEFAULT_PROFILE, loadProfile, resolveProfile, resolveAgencies, redactor } from './profile/index.js';
export type * from './profile/types.js';

export { ALL_CHECKS, defineRegistry, defaultRegistry, type Registry, type Selection } from './checks/index.js';
export type { Check, CheckContext, CheckOutcome, Need } from './checks/types.js';

export { runSuite, type RunSuiteOptions } from './runner/run-suite.js';
export { MockClockDriver } from './runner/mock-clock-driver.js';
export { AdminClockDriver } from './runner/admin-clock-driver.js';
export { RealClockDriver } from './runner/real-clock-driver.js';
export type { ClockDriver } from './runner/clock-driver.js';
export type { RunEvent, RunListener } from './runner/run-events.js';
export type { SuitePart, SuitePartContext, SuiteParts } from './runner/suite-parts.js';

export { startReceiver, type Receiver, type ReceivedDelivery, type ResponsePlan } from './receiver/index.js';
export { writeReports } from './report/write-reports.js';
export type { RunResult, CaseResult, Verdict, Area, RateLimitPoint, WebhookPoint } from './report/model.js';

export { HarnessError, isHarnessError } from './errors/harness-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/codes.js';
