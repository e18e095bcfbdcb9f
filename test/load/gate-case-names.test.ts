import { describe, expect, it } from 'vitest';
import { evaluateLoadGates } from '../../src/load/load-metrics.js';
import { parseThresholds } from '../../src/load/gates.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { sampleLoadResult } from './_load-result.js';

function junitNames(rps: number): string[] {
  const load = sampleLoadResult(20, { rps });
  load.gates = evaluateLoadGates(load, parseThresholds(['rps>=1']));
  expect(load.gates[0]!.passed).toBe(rps >= 1);
  const xml = renderJunit(toRunResult(load, { command: 'svc-harness load', profile: { name: 'mock', base_url: 'http://x' }, embedded: true, startedIso: new Date(0).toISOString(), durationMs: 1 }));
  return [...xml.matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]!);
}

describe('JUnit names of gates', () => {
  it('are the gate expression, the same whether the gate held or broke', () => {
    const held = junitNames(2);
    const broke = junitNames(0.5);
    expect(held).toEqual(['gate:rps&gt;=1']);
    expect(broke).toEqual(held);
  });
});
