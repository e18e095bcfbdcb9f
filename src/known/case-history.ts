/** Earlier runs of the same reports folder a passing known issue is looked up in before it is called fixed. */
export const KNOWN_HISTORY_RUNS = 5;

/** How one case fared in the earlier runs that ran it. */
export interface CaseRecord {
  ran: number;
  failed: number;
}

/** What the newest earlier runs of a reports folder say of the cases a known-issues list names (read by the CLI: `readKnownHistory`). */
export interface KnownHistory {
  /** The reports folder read. */
  folder: string;
  /** Runs read (at most {@link KNOWN_HISTORY_RUNS}). */
  runs: number;
  byId: ReadonlyMap<string, CaseRecord>;
}
