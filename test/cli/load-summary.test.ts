import { describe, expect, it } from 'vitest';
import { caseCountsLine, loadSummaryLines } from '../../src/cli/load-summary.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { evaluateLoadGates } from '../../src/load/gate/load-metrics.js';
import { parseThresholds } from '../../src/load/gate/gates.js';
import { reconcileWallet, WalletTally } from '../../src/load/judge/wallet-reconciliation.js';
import { sampleLoadResult } from '../load/_load-result.js';
import { req } from '../load/_request.js';

describe('the end-of-load summary on the console', () => {
  const rec = new LoadRecorder({ rateLimitedStatus: 429 });
  for (let i = 0; i < 100; i++)
    rec.record(
      req({
        op: 'search',
        agency: 'agency-1',
        bucket: 'read',
        sentAt: 1_000_000 + i,
        receivedAt: 1_000_001 + i,
        latencyMs: i < 8 ? 11.27 : 0.5,
        status: i < 8 ? 200 : 429,
      }),
    );
  const f = rec.figures();
  const load = sampleLoadResult(0, { operations: f.operations, rps: 7531.4, errorRate: 0.0001 });
  load.gates = evaluateLoadGates(load, parseThresholds(['search.p95<200ms', 'errors.rate<0.01', 'rps>=500', 'rps>=10000']));
  const tally = new WalletTally({ rateLimitedStatus: 429 });
  tally.booking('agency-1', 201, 'bk1', 581_800);
  load.verdicts = [
    reconcileWallet(
      { agency: 'agency-1', opening: 1_000_000, closing: 418_200, currency: 'EUR', entries: [{ id: 'e1', type: 'debit', amount: 581_800, bookingId: 'bk1' }] },
      tally.of('agency-1'),
    ),
  ];
  const text = loadSummaryLines(load).join('\n');

  it('shows the 2xx latency apart from the 429s', () => {
    expect(text).toMatch(/^ {2}latency \(ms\) +answers +p50 +p95 +p99 +max$/m);
    expect(text).toMatch(/^ {2}2xx +8 +11\.2\d +11\.2\d/m);
    expect(text).toMatch(/^ {2}429 +92 +0\.50 /m);
    expect(text).not.toMatch(/^ {2}other/m);
  });

  it('prints every gate with ✓ or ✗ in the unit of its metric', () => {
    expect(text).toContain('  ✓ search.p95<200ms: search.p95 measured 11.3 ms, bound < 200 ms');
    expect(text).toContain('  ✓ errors.rate<0.01: errors.rate measured 0.01%, bound < 1%');
    expect(text).toContain('  ✓ rps>=500: rps measured 7 531 rps, bound >= 500 rps');
    expect(text).toContain('  ✗ rps>=10000: rps measured 7 531 rps, bound >= 10 000 rps');
  });

  it('says how the wallets moved, in their currency', () => {
    expect(text).toContain('wallets: 1 of 1 reconcile; balances moved -5 818.00 EUR in all');
  });
});

describe('the count line of a load', () => {
  const c = (kind: 'check' | 'gate', verdict: 'PASS' | 'FAIL' | 'KNOWN') => ({
    id: 'x',
    kind,
    title: '',
    area: 'load' as const,
    clause: '',
    verdict,
    message: '',
    evidence: [],
    startedAt: 0,
    durationMs: 0,
  });

  it('counts a breached gate apart from the verdicts under load', () => {
    expect(caseCountsLine([c('check', 'PASS'), c('check', 'PASS'), c('gate', 'FAIL'), c('gate', 'PASS')])).toBe(
      'verdicts: 2 pass, 0 fail, 0 warn, 0 skip, 0 error; gates: 1 held, 1 breached',
    );
    expect(caseCountsLine([c('check', 'KNOWN'), c('check', 'PASS')])).toBe('verdicts: 1 pass, 0 fail, 0 warn, 0 skip, 0 error, 1 known');
  });
});
