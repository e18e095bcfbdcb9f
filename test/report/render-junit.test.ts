import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/render-junit.js';
import type { CaseResult } from '../../src/results/model.js';
import { findAll, parseXml, type XmlElement } from './_helpers/mini-xml.js';
import { HOSTILE, sampleRun } from './fixtures/sample-run.js';

function testcase(root: XmlElement, id: string): XmlElement {
  const tc = findAll(root, 'testcase').find((t) => t.attrs['name']?.startsWith(`${id} `));
  if (!tc) throw new Error(`no testcase ${id}`);
  return tc;
}

describe('renderJunit', () => {
  const result = sampleRun();
  const xml = renderJunit(result);
  const root = parseXml(xml);

  it('is well-formed with totals matching the run', () => {
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({ tests: '15', failures: '3', errors: '1', skipped: '1', time: '154.000', timestamp: '2026-11-21T19:45:01' });
    expect(findAll(root, 'testcase')).toHaveLength(result.cases.length);
  });

  it('has one suite per area with its own counts, time and timestamp', () => {
    const suites = findAll(root, 'testsuite');
    const areas = new Set(result.cases.map((c) => c.area));
    expect(suites.map((s) => s.attrs['name'])).toEqual([
      'svc-harness.auth',
      'svc-harness.contract',
      'svc-harness.errors',
      'svc-harness.ratelimit',
      'svc-harness.idempotency',
      'svc-harness.quotes',
      'svc-harness.wallet',
      'svc-harness.webhooks',
      'svc-harness.hotel',
      'svc-harness.scenarios',
      'svc-harness.properties',
      'svc-harness.load',
    ]);
    expect(suites).toHaveLength(areas.size);
    const rl = suites.find((s) => s.attrs['name'] === 'svc-harness.ratelimit');
    expect(rl?.attrs).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0', time: '11.800' });
    expect(rl?.attrs['timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    for (const s of suites) {
      const cases = findAll(s, 'testcase');
      expect(Number(s.attrs['tests'])).toBe(cases.length);
      expect(Number(s.attrs['failures'])).toBe(cases.filter((c) => findAll(c, 'failure').length > 0).length);
      expect(Number(s.attrs['errors'])).toBe(cases.filter((c) => findAll(c, 'error').length > 0).length);
      expect(Number(s.attrs['skipped'])).toBe(cases.filter((c) => findAll(c, 'skipped').length > 0).length);
      expect(findAll(s, 'property').find((p) => p.attrs['name'] === 'seed')?.attrs['value']).toBe('1234567');
    }
  });

  it('maps each verdict onto the JUnit element CI readers expect', () => {
    const fail = testcase(root, 'AUTH-02');
    expect(fail.attrs['classname']).toBe('svc-harness.auth');
    expect(fail.attrs['time']).toBe('0.130');
    const failure = findAll(fail, 'failure')[0];
    // Escaping round-trips: the parser gives back exactly the message, `]]>` and markup included.
    expect(failure?.attrs['message']).toBe(result.cases.find((c) => c.id === 'AUTH-02')?.message);
    expect(failure?.attrs['type']).toBe('check.FAIL');
    expect(failure?.text).toContain(HOSTILE.cdataEnd);
    expect(failure?.text).toContain('Clause: SPEC §5 timestamp window');
    expect(failure?.text).toContain('GET http://127.0.0.1:41234/v1/account → 200');
    expect(failure?.text).toContain('x-999999: (exchange not recorded)');

    const error = findAll(testcase(root, 'IDEM-02'), 'error')[0];
    expect(error?.attrs['message']).toContain('ECONNRESET');
    expect(error?.text).toContain('POST http://127.0.0.1:41234/v1/bookings → no response (ECONNRESET socket hang up)');

    const skip = testcase(root, 'QUO-02');
    expect(findAll(skip, 'skipped')[0]?.attrs['message']).toMatch(/clock control/);

    const warn = testcase(root, 'WH-03');
    expect(warn.children.map((c) => c.name)).toEqual(['system-out']);
    expect(warn.children[0]?.text).toMatch(/^WARN: Second delay/);

    expect(testcase(root, 'AUTH-01').children).toEqual([]);
    expect(findAll(testcase(root, 'property:idempotency-model'), 'failure')[0]?.text).toContain('Replay: svc-harness run --only property:idempotency-model');
  });

  it('strips characters XML 1.0 forbids and keeps line breaks in attributes', () => {
    const base = result.cases[0] as CaseResult;
    const nasty: CaseResult = { ...base, id: 'X-1', verdict: 'FAIL', message: `bad\u0000\u0001\u001b\uFFFE\uD800 "q" 'a'\nline2\ttab`, title: 'a & b < c' };
    const parsed = parseXml(renderJunit(sampleRun({ cases: [nasty], exchanges: [] })));
    const tc = findAll(parsed, 'testcase')[0];
    expect(tc?.attrs['name']).toBe('X-1 a & b < c');
    expect(findAll(parsed, 'failure')[0]?.attrs['message']).toBe(`bad "q" 'a'\nline2\ttab`);
  });

  it('renders a run without cases as an empty, valid report', () => {
    const parsed = parseXml(renderJunit(sampleRun({ cases: [] })));
    expect(parsed.attrs['tests']).toBe('0');
    expect(parsed.children).toEqual([]);
  });
});
