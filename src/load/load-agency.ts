/** An agency the load acts as. */
export interface LoadAgency {
  id: string;
  keyId: string;
  secret: string;
  /** Requests per window, per bucket (profile bucket words). */
  limits: { read: number; write: number };
}
