import { ApiError } from './api-error.js';

/** One failed field of a 422 VALIDATION_FAILED. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The 422 `VALIDATION_FAILED` error listing `fields`. */
export function validationFailed(fields: FieldProblem[]): ApiError {
  return new ApiError(422, 'VALIDATION_FAILED', `request failed validation: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`, { fields });
}

/** True for a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Collects field problems of one object. */
export class FieldChecker {
  readonly problems: FieldProblem[] = [];

  constructor(
    private readonly obj: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  private add(name: string, message: string): void {
    this.problems.push({ field: `${this.prefix}${name}`, message });
  }

  text(name: string, optional = false): void {
    const v = this.obj[name];
    if (v === undefined && optional) return;
    if (typeof v !== 'string' || v.trim() === '') this.add(name, v === undefined ? 'is required' : 'must be a non-empty string');
    else if (v.length > 200) this.add(name, 'must be at most 200 characters');
  }

  iata(name: string): void {
    const v = this.obj[name];
    if (typeof v !== 'string' || !/^[A-Z]{3}$/.test(v)) this.add(name, v === undefined ? 'is required' : 'must be a 3-letter IATA code in upper case');
  }

  date(name: string): void {
    const v = this.obj[name];
    if (!isIsoDate(v)) this.add(name, v === undefined ? 'is required' : 'must be a date YYYY-MM-DD');
  }

  int(name: string, min: number, max: number): void {
    const v = this.obj[name];
    if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) {
      this.add(name, v === undefined ? 'is required' : `must be an integer from ${min} to ${max}`);
    }
  }
}
