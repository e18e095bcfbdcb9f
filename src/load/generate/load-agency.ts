/** An agency the load acts as. */
export interface LoadAgency {
  id: string;
  keyId: string;
  secret: string;
  /** Requests per window, per bucket (profile bucket words). */
  limits: { read: number; write: number };
  /** Products open under its contract, when known: a connection acting as it replays only journeys that keep to them. */
  open?: readonly string[] | undefined;
}
