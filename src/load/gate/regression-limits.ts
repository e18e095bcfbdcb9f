import { HarnessError } from '../../errors/harness-error.js';
import type { CompareMetricKind, RegressionLimits } from './regression-rule.js';

/**
 * How much worse a metric may get before `report compare` calls it a
 * regression: latency and throughput relative to BASE (10% = a p95 from 100
 * to 110 ms), error and 429 rates in percentage points (1% = from 0.2% to 1.2%).
 */
export const DEFAULT_REGRESSION_LIMITS: Readonly<RegressionLimits> = Object.freeze({ latency: 0.1, rps: 0.1, errors: 0.01, '429': 0.05 });

const KIND_NAMES: Readonly<Record<string, CompareMetricKind>> = {
  latency: 'latency',
  rps: 'rps',
  throughput: 'rps',
  errors: 'errors',
  error: 'errors',
  '429': '429',
  rate_limited: '429',
};

function fraction(text: string, option: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*(%)?\s*$/.exec(text);
  if (!m) throw new HarnessError('E_USAGE', `--max-regression ${option} must be a percentage like 10% or a fraction like 0.1, got "${text}"`);
  const v = Number(m[1]);
  return m[2] ? v / 100 : v;
}

/**
 * Parses `--max-regression`: `latency=10%,rps=5%,errors=1%,429=5%` (any of
 * them; the others keep their defaults), or one bare value for latency and
 * throughput alike (`10%`). A wrong kind or value is a usage error naming it.
 */
export function parseRegressionLimits(texts: readonly string[] | string | undefined): RegressionLimits {
  const limits: RegressionLimits = { ...DEFAULT_REGRESSION_LIMITS };
  const list = (typeof texts === 'string' ? [texts] : (texts ?? []))
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq === -1) {
      const v = fraction(item, 'value');
      limits.latency = v;
      limits.rps = v;
      continue;
    }
    const name = item.slice(0, eq).trim();
    const kind = KIND_NAMES[name];
    if (!kind) throw new HarnessError('E_USAGE', `--max-regression: unknown metric kind "${name}" in "${item}"; the kinds are latency, rps, errors, 429`);
    limits[kind] = fraction(item.slice(eq + 1), name);
  }
  return limits;
}

/** The limits as one line: `latency 10%, rps 10%, errors +1 pt, 429 +5 pt`. */
export function describeLimits(l: RegressionLimits): string {
  const pct = (v: number): string => `${Number((v * 100).toFixed(2))}`;
  return `latency ${pct(l.latency)}%, rps ${pct(l.rps)}%, errors +${pct(l.errors)} pt, 429 +${pct(l['429'])} pt`;
}
