import { describe, expect, it } from 'vitest';
import { runProgress } from '../../src/cli/run-progress.js';
import type { CaseResult } from '../../src/results/model.js';

/** A stream that keeps what is written, a terminal or not, and a clock the test moves. */
function setup(isTTY: boolean, env: NodeJS.ProcessEnv = {}) {
  let written = '';
  let t = 0;
  const progress = runProgress({ stream: { isTTY, write: (s: string) => ((written += s), true) }, env, now: () => t, timer: false, resultsOnTerminal: true });
  return {
    progress,
    move: (ms: number) => (t += ms),
    take: () => {
      const out = written;
      written = '';
      return out;
    },
  };
}

const finished = (id: string): CaseResult => ({
  id,
  kind: 'check',
  title: id,
  area: 'auth',
  clause: '',
  verdict: 'PASS',
  message: '',
  evidence: [],
  startedAt: 0,
  durationMs: 1,
});

describe('the progress of svc-harness run', () => {
  it('on a terminal: a bar with the time left from the estimate, each wait counting down', () => {
    const { progress, move, take } = setup(true);
    progress.update({ type: 'plan', mode: 'real-time', checks: 4, scenarios: false, properties: false, estimateMs: 120_000, serialMs: 200_000 });
    expect(take()).toContain('estimated 2 min (3 min 20 s one by one)');
    move(30_000);
    progress.update({ type: 'case-finished', result: finished('AU-01') });
    progress.update({ type: 'waiting', ms: 58_000, reason: 'RL-04 lets time pass at the target' });
    const first = take();
    // Redrawn in place: the last drawing is what the terminal shows.
    expect(first.split('\r').at(-1)).toBe(
      '[######..................] 1/4 checks, 30 s elapsed, about 1 min 30 s left; waiting 58 s: RL-04 lets time pass at the target\u001b[K',
    );
    move(10_000);
    progress.tick();
    expect(take()).toContain('waiting 48 s: RL-04');
    // A result line on the same terminal: the bar is cleared first, then drawn again.
    progress.beforeResultLine();
    expect(take()).toBe('\r\u001b[K');
    move(60_000);
    progress.tick();
    const late = take();
    expect(late).not.toContain('waiting');
    expect(late).toContain('about 20 s left');
    move(60_000);
    progress.tick();
    expect(take()).toContain('past the estimate');
    progress.done();
    expect(take()).toBe('\r\u001b[K');
  });

  it('without a terminal, or with CI set: one line per wait as it begins, a plain line every 5 s, no control characters', () => {
    for (const [tty, env] of [
      [false, {}],
      [true, { CI: 'true' }],
    ] as const) {
      const { progress, move, take } = setup(tty, env);
      progress.update({ type: 'plan', mode: 'isolated', checks: 10, scenarios: true, properties: false });
      expect(take()).toBe('Running 10 checks, scenarios, each on a freshly reset target.\n');
      move(2000);
      progress.update({ type: 'case-finished', result: finished('AU-01') });
      progress.update({ type: 'waiting', ms: 12_000, reason: 'a rate-limit bucket is resting for one window before its next user' });
      expect(take()).toBe('waiting 12 s: a rate-limit bucket is resting for one window before its next user\n');
      // A wait under a second is not worth a line.
      progress.update({ type: 'waiting', ms: 400, reason: 'short' });
      move(2000);
      progress.tick();
      expect(take()).toBe('');
      move(1000);
      progress.tick();
      // The pace so far (1 check in 5 s) tells the time left of the other 9.
      expect(take()).toBe('run: 1/10 checks, 5 s elapsed, about 45 s left; waiting 9 s: a rate-limit bucket is resting for one window before its next user\n');
      move(1000);
      progress.tick();
      expect(take()).toBe('');
      progress.done();
      expect(take()).toBe('');
    }
  });
});
