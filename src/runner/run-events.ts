import type { CaseResult } from '../results/model.js';

/** Progress of a run, for the CLI to render; the run's result never depends on who listens. */
export type RunEvent =
  | {
      type: 'plan';
      mode: 'isolated' | 'real-time';
      checks: number;
      scenarios: boolean;
      properties: boolean;
      /** Real-time runs: the estimated duration (critical path of the checks' waits) and the serial sum. */
      estimateMs?: number;
      serialMs?: number;
      /** Real-time runs: each unit's slot in the played plan, ms from the run's start, and the agencies (profile indexes) it plays with. */
      slots?: Array<{ id: string; agencies: number[]; startMs: number; endMs: number }>;
    }
  /** `agencies`: a check's agencies (profile indexes, its roles in order), where the run leases them. */
  | { type: 'case-started'; id: string; kind: CaseResult['kind']; title: string; agencies?: number[] }
  | { type: 'case-finished'; result: CaseResult }
  | { type: 'part-started'; part: 'scenarios' | 'properties' }
  | { type: 'waiting'; ms: number; reason: string }
  | { type: 'note'; message: string }
  | { type: 'log'; id: string; message: string };

/** A listener of run events. */
export type RunListener = (event: RunEvent) => void;
