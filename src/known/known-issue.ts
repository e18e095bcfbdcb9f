/** One entry of a known-issues file: a case whose failure is known and excused until a date. */
export interface KnownIssue {
  /** The case id: a check (`RL-04`), `scenario:<name>`, `property:<name>`, a load verdict (`load:window-limit:<agency>:<bucket>`) or a gate (`gate:search.p95<200ms`). */
  id: string;
  /** Why the failure is known (a ticket, a vendor's promise); shown beside the case in every report. */
  reason: string;
  /** Last day (UTC, `YYYY-MM-DD`) the entry excuses the failure. */
  until: string;
}
