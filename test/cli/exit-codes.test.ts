import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOf, exitCodeOfError, loadOutcome, type CommandOutcome } from '../../src/cli/exit-codes.js';
import { reportFatal } from '../../src/cli/fatal.js';
import { ERROR_CODES, type ErrorCode } from '../../src/errors/codes.js';
import { HarnessError } from '../../src/errors/harness-error.js';
import type { CaseResult } from '../../src/results/model.js';

// The whole contract of the CLI's exit statuses, one row each (as fastify's test/internals/errors.test.js lists its codes).
const OUTCOMES: [string, CommandOutcome, number][] = [
  ['nothing judged', { kind: 'done' }, 0],
  ['a passed run, scenario set, self-test or certificate', { kind: 'verdict', passed: true }, 0],
  ['a failed one', { kind: 'verdict', passed: false }, 1],
  ['an INCONCLUSIVE run: nothing passed, or the baseline AU-01 was refused', { kind: 'inconclusive' }, 1],
  ['an INCONCLUSIVE run on a target whose first answer was too large to read: unusable', { kind: 'inconclusive', targetUnusable: true }, 3],
  ['a certificate intact but verified without --public-key: no signer pinned', { kind: 'unpinned' }, 2],
  ['a load with every verdict and gate held', { kind: 'load', verdictsPassed: true, gatesPassed: true }, 0],
  ['a load with a failed gate only', { kind: 'load', verdictsPassed: true, gatesPassed: false }, 99],
  ['a load with a failed verdict only', { kind: 'load', verdictsPassed: false, gatesPassed: true }, 1],
  ['a load with both failed: correctness first', { kind: 'load', verdictsPassed: false, gatesPassed: false }, 1],
  [
    'a load whose target stopped answering mid-run: reported, yet unreachable',
    { kind: 'load', verdictsPassed: false, gatesPassed: false, targetLost: true },
    3,
  ],
  ['a second Ctrl-C', { kind: 'interrupted' }, 130],
  ['a load stopped by SIGINT', { kind: 'interrupted', signal: 'SIGINT' }, 130],
  ['a load stopped by SIGTERM', { kind: 'interrupted', signal: 'SIGTERM' }, 143],
];

const ERRORS: [ErrorCode, number][] = [
  ['E_USAGE', 2],
  ['E_PROFILE_INVALID', 2],
  ['E_FILE_UNREADABLE', 2],
  ['E_FIXTURE_INVALID', 2],
  ['E_SCENARIO_INVALID', 2],
  ['E_KNOWN_ISSUES_INVALID', 2],
  ['E_SECRET_MISSING', 2],
  ['E_PORT_IN_USE', 2],
  ['E_TARGET_UNREACHABLE', 3],
  ['E_TRANSPORT', 3],
  ['E_RESPONSE_TOO_LARGE', 1],
  ['E_REPORT_WRITE', 2],
  ['E_INTERNAL', 70],
];

describe('exit codes', () => {
  it.each(OUTCOMES)('%s exits %i', (_what, outcome, code) => {
    expect(exitCodeOf(outcome)).toBe(code);
  });

  it.each(ERRORS)('a HarnessError %s exits %i', (code, exit) => {
    expect(exitCodeOfError(new HarnessError(code, 'x'))).toBe(exit);
  });

  it('lists every error code in the table above, so a new code gets a row', () => {
    expect(ERRORS.map(([c]) => c).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('maps a yargs usage error to 2 and anything else (a bug) to 70', () => {
    expect(exitCodeOfError(Object.assign(new Error('Unknown argument: x'), { usage: true }))).toBe(EXIT.USAGE);
    expect(exitCodeOfError(new TypeError('x is undefined'))).toBe(EXIT.BUG);
    expect(exitCodeOfError('a string')).toBe(EXIT.BUG);
  });

  it('prints one line for a user mistake and the stack only for a bug', () => {
    const lines: string[] = [];
    expect(reportFatal(new HarnessError('E_USAGE', '--port must be a port number'), (l) => lines.push(l))).toBe(2);
    expect(reportFatal(Object.assign(new Error('Unknown argument: x'), { usage: true }), (l) => lines.push(l))).toBe(2);
    expect(lines).toEqual(['svc-harness: --port must be a port number', 'svc-harness: Unknown argument: x (see svc-harness --help)']);
    const bug: string[] = [];
    expect(reportFatal(new TypeError('boom'), (l) => bug.push(l))).toBe(70);
    expect(bug[0]).toMatch(/^svc-harness: internal error, please report it/);
    expect(bug[0]).toMatch(/TypeError: boom\n\s+at /);
    const invariant: string[] = [];
    expect(reportFatal(new HarnessError('E_INTERNAL', 'the response ended without being recorded'), (l) => invariant.push(l))).toBe(70);
    expect(invariant[0]).toMatch(/^svc-harness: internal error, please report it/);
    expect(invariant[0]).toMatch(/HarnessError: the response ended without being recorded\n\s+at /);
  });

  it('splits the failed cases of a load between verdicts and gates', () => {
    const c = (kind: CaseResult['kind'], verdict: CaseResult['verdict']) => ({ kind, verdict }) as CaseResult;
    expect(exitCodeOf(loadOutcome({ cases: [c('check', 'PASS'), c('gate', 'PASS')] }))).toBe(0);
    expect(exitCodeOf(loadOutcome({ cases: [c('check', 'WARN'), c('gate', 'FAIL')] }))).toBe(99);
    expect(exitCodeOf(loadOutcome({ cases: [c('check', 'ERROR'), c('gate', 'PASS')] }))).toBe(1);
    expect(exitCodeOf(loadOutcome({ cases: [c('check', 'FAIL'), c('gate', 'FAIL')] }))).toBe(1);
  });
});
