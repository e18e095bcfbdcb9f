import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/render-html.js';
import { gateFigures } from '../../src/report/_internal/gate-units.js';
import { sampleLoad, sampleLoadRun } from './fixtures/sample-run.js';

describe('the load report', () => {
  const load = sampleLoad();
  load.gates = [
    { id: 'gate:search.p95<200ms', source: 'search.p95<200ms', passed: false, actual: 5398.527, expected: '< 200', message: 'search.p95 = 5398.53 (breaks < 200)' },
    { id: 'gate:errors.rate<0.01', source: 'errors.rate<0.01', passed: false, actual: 0.0329, expected: '< 0.01', message: 'errors.rate = 0.03 (breaks < 0.01)' },
    { id: 'gate:rps>=500', source: 'rps>=500', passed: true, actual: 612.44, expected: '>= 500', message: 'rps = 612.44 (within >= 500)' },
  ];
  const base = sampleLoadRun();
  const gateCase = { ...base.cases[0]!, id: 'gate:search.p95<200ms', kind: 'gate' as const, area: 'load' as const, verdict: 'FAIL' as const, message: 'search.p95 = 5398.53 (breaks < 200)', evidence: [] };
  const page = renderHtml(sampleLoadRun({ load, seed: 0, cases: [...base.cases, gateCase], target: { ...base.target, clock: 'mock-admin' } }));

  it('shows the clock the load ran in and no made-up seed', () => {
    const banner = page.slice(0, page.indexOf('</section>'));
    expect(banner).toContain('Clock <b>real time</b>');
    expect(banner).not.toContain('mock-admin');
    expect(banner).not.toContain('Seed <b>0</b>');
  });

  it('keeps the units of its gates, with ✓ and ✗', () => {
    expect(gateFigures(load.gates[0]!)).toMatchObject({ metric: 'search.p95', actual: '5398.5 ms', limit: '< 200 ms', bound: 200, kind: 'latency' });
    expect(gateFigures(load.gates[1]!)).toMatchObject({ actual: '3.29%', limit: '< 1%' });
    expect(gateFigures(load.gates[2]!)).toMatchObject({ actual: '612.4 req/s', limit: '>= 500 req/s' });
    expect(page).toMatch(/>✗<\/td><td><code>search\.p95&lt;200ms<\/code><\/td><td>5398\.5 ms<\/td><td>&lt; 200 ms<\/td>/);
    expect(page).toMatch(/>✓<\/td><td><code>rps&gt;=500<\/code><\/td><td>612\.4 req\/s<\/td>/);
    expect(page).toContain('<p class="msg">search.p95 measured 5398.5 ms, bound &lt; 200 ms</p>');
  });

  it('labels the y-axes of its charts and draws latency gates as threshold lines', () => {
    expect(page.match(/rotate\(-90\)" text-anchor="middle" font-size="10">latency \(ms\)<\/text>/g)).toHaveLength(2);
    expect(page).toContain('>responses per second</text>');
    // One line per latency gate on each latency chart, none for rates or throughput.
    expect(page.match(/>gate search\.p95 &lt; 200 ms<\/text>/g)).toHaveLength(2);
    expect(page).not.toContain('>gate errors.rate');
  });
});
