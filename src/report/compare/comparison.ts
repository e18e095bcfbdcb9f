import type { GateResult, SecondFigures, Spectrum } from '../../results/load-result.js';
import type { MetricDelta, RegressionLimits } from '../../load/gate/regression-rule.js';
import type { RunKind } from '../../results/run-result.js';

/*
 * The result of `report compare`: data only, rendered by the console,
 * Markdown, HTML and JSON printers. Verdicts are kept as strings so that a
 * verdict this version does not know (a later one's) is carried, not lost.
 */

/** How a case moved between the two runs. */
export type CaseChange = 'newly-failing' | 'fixed' | 'still-failing' | 'newly-skipped' | 'added' | 'removed' | 'changed';

/** The order changes are read in: what got worse first. */
export const CASE_CHANGES: readonly CaseChange[] = ['newly-failing', 'still-failing', 'newly-skipped', 'fixed', 'changed', 'added', 'removed'];

/** A case's verdict and message in one run. */
export interface CaseSide {
  verdict: string;
  message: string;
}

/** One case that differs between the runs (or still fails), with both sides. */
export interface CaseDelta {
  id: string;
  title: string;
  area: string;
  change: CaseChange;
  base?: CaseSide | undefined;
  new?: CaseSide | undefined;
}

export type { CompareMetricKind, Interval, MetricDelta, RegressionLimits } from '../../load/gate/regression-rule.js';

/** The percentile spectra of one operation in both runs, for the overlaid chart. */
export interface SpectrumPair {
  op: string;
  base: Spectrum;
  new: Spectrum;
}

/** A gate evaluated on both runs. */
export interface GatePair {
  source: string;
  base: GateResult;
  new: GateResult;
  /** Held on BASE (or not measured) and broken on NEW. */
  newlyBroken: boolean;
}

/** The load part of a comparison. */
export interface LoadComparison {
  limits: RegressionLimits;
  /** Run-wide and per operation and outcome, in operation order. */
  metrics: MetricDelta[];
  /** The percentile spectra drawn: `all` and the regressed operations first, at most MAX_SPECTRA (load-diff.ts), in operation order. */
  spectra: SpectrumPair[];
  /** Operations with a spectrum (measured by either run): more than `spectra.length` when some are not drawn. */
  spectrumOps: number;
  /** Per-second series of both runs, for the overlaid throughput chart. */
  series: { base: SecondFigures[]; new: SecondFigures[] };
  durationS: { base: number; new: number };
}

/** What identifies one of the two runs. */
export interface RunLabel {
  file: string;
  runId: string;
  kind: RunKind;
  startedAt: string;
  durationMs: number;
  verdict: string;
  command: string;
  target: string;
}

/** The whole comparison of BASE and NEW. */
export interface RunComparison {
  schema: 'svc-harness/compare@1';
  base: RunLabel;
  new: RunLabel;
  /** Cases that changed or still fail, worst first (see {@link CASE_CHANGES}). */
  cases: CaseDelta[];
  /** Cases whose verdict is the same in both runs and not failing. */
  unchanged: number;
  load?: LoadComparison | undefined;
  gates: GatePair[];
  /** Newly failing cases, regressed metrics and newly broken gates, counted. */
  counts: { newlyFailing: number; regressions: number; newlyBrokenGates: number; fixed: number; improvements: number };
  /** NEW proves nothing (INCONCLUSIVE: every case skipped, or the baseline request refused) where BASE did: its cases would otherwise read as merely skipped. */
  newlyInconclusive: boolean;
  /** True when something newly fails, regressed, a gate newly broke, or NEW is newly INCONCLUSIVE: the command exits 1. */
  regressed: boolean;
  notes: string[];
}
