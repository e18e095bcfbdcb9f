import type { HotelApi, TargetApi } from '../../api/types.js';
import type { MemoryRecorder } from '../../client/exchange.js';
import type { CheckContext } from '../../checks/types.js';
import type { Profile, ResolvedAgency } from '../../profile/index.js';
import type { Receiver } from '../../receiver/index.js';
import type { ClockDriver } from '../../clock/clock-driver.js';
import type { CertCheck } from '../cert-check.js';
import type { Area } from '../../results/model.js';

/** What the checks of a plan learn and share while it runs (in plan order). */
export interface CertifyState {
  /** Open and closed products per the account (read by the account check, or lazily). */
  products?: { open: string[]; closed: string[] };
  /** Rate limits per the account response, when it reports them. */
  accountLimits?: { read?: number; write?: number };
  /** The agency's webhook endpoint before the plan changed it (null: none was set). */
  originalWebhookUrl?: string | null;
  /** The webhook endpoint the plan registered (the harness's receiver). */
  registeredWebhookUrl?: string;
}

/** Both agencies of one organisation as the isolation test uses them. */
export interface PartnerAccess {
  readonly agency: ResolvedAgency;
  api(index?: number): TargetApi;
  hotel(index?: number): HotelApi | undefined;
  readonly recorder: MemoryRecorder;
}

/** Everything a certification check may use: only what an agency can do, in real time. */
export interface CertifyContext extends Pick<CheckContext, 'checkId' | 'label'> {
  readonly profile: Readonly<Profile>;
  readonly agency: ResolvedAgency;
  readonly api: TargetApi;
  /** Real time against a service; the harness's own tests may move a mock's clock instead. */
  readonly clock: ClockDriver;
  /** The harness's webhook receiver, when the target can reach one. */
  readonly receiver: Receiver | undefined;
  /** Why there is no receiver (for a SKIP message). */
  readonly receiverMissing: string | undefined;
  /**
   * A second agency of the certified agency's organisation, when the profile
   * gives one with its secrets: the service and hotel APIs of both (0: the
   * certified agency, 1: the partner), recording into `recorder`.
   */
  readonly partner: PartnerAccess | undefined;
  /** Why there is no partner (for a SKIP message). */
  readonly partnerMissing: string | undefined;
  /** Longest single wait a check may make, ms (`--max-wait`). */
  readonly maxWaitMs: number;
  readonly state: CertifyState;
  /** A value unique to this run (idempotency keys, client references, paths). */
  unique(prefix: string): string;
  /** Open and closed products, read once from the account. */
  products(): Promise<{ open: string[]; closed: string[] }>;
  /** Adds a named piece of evidence (e.g. webhook deliveries) to the running check's evidence file. */
  attach(name: string, value: unknown): void;
  /** A progress line, after the running check's id. */
  log(line: string): void;
}

/** One check of a certification plan (a test of the certificate). */
export interface PlanCheck extends CertCheck<CertifyContext> {
  /** The area of the specification it proves, as the suite's checks are grouped in a report. */
  area: Area;
  /** A required check must pass for the certificate; one that is not required refuses it only by failing. */
  required: boolean;
}

/** A fixed, versioned certification plan. */
export interface CertificationPlan {
  id: string;
  version: string;
  title: string;
  checks: readonly PlanCheck[];
}
