import { HarnessError } from '../errors/harness-error.js';

/** Where a run's figures go while it runs: a Prometheus remote-write receiver or an OTLP/HTTP metrics receiver. */
export interface OutTarget {
  kind: 'prometheus-rw' | 'otlp';
  url: string;
}

/** The names `--out` takes, and k6's names for the same outputs (so a k6 user's habit works). */
const KINDS: Readonly<Record<string, OutTarget['kind']>> = {
  'prometheus-rw': 'prometheus-rw',
  'experimental-prometheus-rw': 'prometheus-rw',
  otlp: 'otlp',
  opentelemetry: 'otlp',
};

/**
 * Parses one `--out` value, `NAME=URL`: `prometheus-rw=http://host:9090/api/v1/write`
 * or `otlp=http://host:4318/v1/metrics`.
 */
export function parseOutTarget(text: string): OutTarget {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  const kind = KINDS[name];
  if (kind === undefined)
    throw new HarnessError('E_USAGE', `--out takes prometheus-rw=URL or otlp=URL, got ${JSON.stringify(text)} (unknown output ${JSON.stringify(name)})`);
  const raw = eq < 0 ? '' : text.slice(eq + 1).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarnessError('E_USAGE', `--out ${name} needs an http(s) URL after "=", got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HarnessError('E_USAGE', `--out ${name} needs an http(s) URL after "=", got ${JSON.stringify(raw)}`);
  return { kind, url: url.href };
}
