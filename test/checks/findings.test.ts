import { describe, expect, it } from 'vitest';
import { errored, evidenceId, Findings, skipped } from '../../src/checks/findings.js';

describe('Findings: the one verdict builder and its evidence rule', () => {
  it('FAIL cites exactly the exchanges the failures named, in the order named', () => {
    const f = new Findings().see('x-1', 'x-2');
    f.fail('second promise broken', 'x-4');
    f.expect(false, 'first promise broken', 'x-3', 'x-4');
    const o = f.outcome('all good');
    expect(o).toEqual({ verdict: 'FAIL', message: 'second promise broken; first promise broken', evidence: ['x-4', 'x-3'] });
  });

  it('FAIL that names no exchange cites every exchange seen', () => {
    const o = new Findings().see('x-1').fail('no request was sent').outcome('all good');
    expect(o.verdict).toBe('FAIL');
    expect(o.evidence).toEqual(['x-1']);
  });

  it('WARN cites the exchanges the warnings named, then the ones seen', () => {
    const o = new Findings().see('x-1', 'x-2').warn('could not observe a move', 'x-2', 'x-3').outcome('all good');
    expect(o).toEqual({ verdict: 'WARN', message: 'could not observe a move', evidence: ['x-2', 'x-3', 'x-1'] });
  });

  it('a failure outweighs a warning', () => {
    const o = new Findings().warn('doubt', 'x-1').fail('broken', 'x-2').outcome('all good');
    expect(o.verdict).toBe('FAIL');
    expect(o.evidence).toEqual(['x-2']);
  });

  it('PASS cites every exchange seen, once each, with the details', () => {
    const f = new Findings();
    f.expect(true, 'never shown', 'x-1');
    f.check(undefined, 'x-2', 'x-1');
    expect(f.outcome('all good', { n: 2 })).toEqual({ verdict: 'PASS', message: 'all good', evidence: ['x-1', 'x-2'], details: { n: 2 } });
  });

  it('with nothing seen there was nothing to judge: WARN with a reason, never PASS', () => {
    const o = new Findings().outcome('0 requests answered 401');
    expect(o.verdict).toBe('WARN');
    expect(o.message).toMatch(/^nothing to judge/);
    expect(o.message).toContain('0 requests answered 401');
    expect(new Findings().see(undefined, null, '').outcome('x').verdict).toBe('WARN');
  });

  it('reads every kind of evidence reference and ignores missing ones', () => {
    expect(evidenceId('x-1')).toBe('x-1');
    expect(evidenceId({ id: 'x-2' })).toBe('x-2');
    expect(evidenceId({ exchange: { id: 'x-3' } })).toBe('x-3');
    expect(evidenceId({ exchangeId: 'x-4' })).toBe('x-4');
    expect(evidenceId(undefined)).toBeUndefined();
    expect(evidenceId(null)).toBeUndefined();
  });

  it('SKIP and ERROR outcomes carry their reason and the exchanges named', () => {
    expect(skipped('no open product', { exchange: { id: 'x-1' } }, undefined)).toEqual({ verdict: 'SKIP', message: 'no open product', evidence: ['x-1'] });
    expect(errored('scenario could not be set up', 'x-1', 'x-1', { exchangeId: 'x-2' })).toEqual({
      verdict: 'ERROR',
      message: 'scenario could not be set up',
      evidence: ['x-1', 'x-2'],
    });
  });
});
