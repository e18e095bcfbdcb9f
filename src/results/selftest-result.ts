import type { Verdict } from './model.js';

/** One failed case of a self-test run: what failed and the evidence it named. */
export interface FailedCase {
  id: string;
  kind: 'check' | 'scenario' | 'property' | 'gate';
  verdict: Verdict;
  message: string;
  /** Evidence ids the case named. */
  evidence: string[];
  /** Evidence ids that are not among the run's exchanges. */
  missingEvidence: string[];
}

/** The verdict of one defect. */
export interface DefectOutcome {
  defect: string;
  description: string;
  promise: string;
  /** The checks expected to catch it. */
  expected: string[];
  /** Expected checks that failed with evidence found in the run's exchanges: the catch. */
  caughtBy: string[];
  /** Expected checks that failed without usable evidence (do not count). */
  unproven: FailedCase[];
  /** Every other failed case (fine, shown). */
  collateral: FailedCase[];
  caught: boolean;
  /**
   * The cases its run selected (a `run --only` list) in a focused self-test;
   * absent when the whole suite ran.
   */
  focus?: string[];
  /** Cases of the run (all kinds) and real duration of the run. */
  cases: number;
  durationMs: number;
  seed: number;
  /** Set when the run itself could not complete. */
  error?: string;
}

/** One run of the suite against the mock with no defect. */
export interface CleanOutcome {
  index: number;
  /** Cases failing (FAIL or ERROR) against the clean mock: false alarms. */
  falseAlarms: FailedCase[];
  cases: number;
  durationMs: number;
  seed: number;
  error?: string;
}

/** For each check: the defects only it catches (among expected catchers that failed). */
export interface CheckCoverage {
  check: string;
  /** Defects it caught (as an expected catcher). */
  catches: string[];
  /** Defects it alone caught: removing the check would let them escape. */
  only: string[];
  /** Why the check stays although it alone catches nothing, when documented. */
  explanation?: string;
}

/**
 * What a defect's run executes: `focused`, only the cases that can catch it
 * (its expected checks and the baseline); `whole`, the whole suite. Clean
 * runs are the whole suite in both.
 */
export type SelftestMode = 'focused' | 'whole';

/** The whole self-test result (`selftest.json`). */
export interface SelftestResult {
  schema: 'svc-harness/selftest@1';
  kind: 'selftest';
  runId: string;
  command: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  concurrency: number;
  /** What each defect's run executed (the clean runs are the whole suite either way). */
  mode: SelftestMode;
  /**
   * True when every defect of the catalogue ran. Only then can the report
   * say which checks alone catch nothing; a run of chosen defects leaves that open.
   */
  wholeCatalogue: boolean;
  defects: DefectOutcome[];
  clean: CleanOutcome[];
  coverage: CheckCoverage[];
  score: { caught: number; total: number };
  falseAlarmRuns: number;
  /** Checks that alone catch no defect and have no documented reason. */
  unexplainedChecks: string[];
  verdict: 'PASS' | 'FAIL';
}
