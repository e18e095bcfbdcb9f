import { describe, expect, it } from 'vitest';
import { evaluateLoadGates } from '../../src/load/gate/load-metrics.js';
import { parseThresholds } from '../../src/load/gate/gates.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { sampleLoadResult } from './_load-result.js';

function junitOf(rps: number, gate = 'rps>=1'): string {
  const load = sampleLoadResult(20, { rps });
  load.gates = evaluateLoadGates(load, parseThresholds([gate]));
  return renderJunit(
    toRunResult(load, {
      command: 'svc-harness load',
      profile: { name: 'mock', base_url: 'http://x' },
      embedded: true,
      startedIso: new Date(0).toISOString(),
      durationMs: 1,
    }),
  );
}

function junitNames(rps: number): string[] {
  return [...junitOf(rps).matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]!);
}

describe('JUnit names of gates', () => {
  it('are the gate expression, the same whether the gate held or broke', () => {
    const held = junitNames(2);
    const broke = junitNames(0.5);
    expect(held).toEqual(['gate:rps&gt;=1']);
    expect(broke).toEqual(held);
  });
});

describe('JUnit cases of gates', () => {
  it('say what was measured, in the unit of the metric, whether the gate held or broke', () => {
    expect(junitOf(7531.4, 'rps>=500')).toContain('<system-out><![CDATA[rps measured 7 531 rps, bound >= 500 rps: held]]></system-out>');
    expect(junitOf(0.5)).toMatch(/<failure message="rps measured 0\.5 rps, bound &gt;= 1 rps: broken"/);
    expect(junitOf(1, 'search.p95<200ms')).toContain('<![CDATA[search.p95 measured 5 ms, bound < 200 ms: held]]>');
    expect(junitOf(1, 'errors.rate<0.01')).toContain('<![CDATA[errors.rate measured 0%, bound < 1%: held]]>');
  });
});
