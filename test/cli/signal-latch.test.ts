import { describe, expect, it } from 'vitest';
import type { CommandOutcome } from '../../src/cli/exit-codes.js';
import { SignalLatch, type StopSignal } from '../../src/cli/signal-latch.js';
import { stopOnSignals } from '../../src/cli/stop-on-signals.js';

/** The listeners added for `signal` since `before` (called directly: a real signal would reach the test runner too). */
function added(signal: StopSignal, before: NodeJS.SignalsListener[]): Array<() => void> {
  return process.listeners(signal).filter((l) => !before.includes(l)) as Array<() => void>;
}

describe('the signal latch of main', () => {
  it('quits at once on a signal no command listens for', () => {
    const before = process.listeners('SIGTERM');
    const quits: StopSignal[] = [];
    const latch = new SignalLatch((s) => void quits.push(s)).install();
    try {
      added('SIGTERM', before)[0]!();
      expect(quits).toEqual(['SIGTERM']);
    } finally {
      latch.uninstall();
    }
  });

  it('keeps a signal that comes while a command that stops cleanly loads, and that command starts stopped (it was killed by the default handler, with no report)', () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const quits: StopSignal[] = [];
    const latch = new SignalLatch((s) => void quits.push(s)).install();
    try {
      latch.keepForCommand();
      added('SIGINT', before.SIGINT)[0]!();
      expect(quits).toEqual([]);
      let said = '';
      const outcomes: CommandOutcome[] = [];
      const stop = stopOnSignals(
        {
          quit: (o) => {
            outcomes.push(o);
            throw new Error('quit');
          },
          takeSignal: () => latch.take(),
        },
        'the run',
        { write: (s: string) => ((said += s), true) },
      );
      expect(stop.signal.aborted).toBe(true);
      expect(stop.stoppedBy()).toBe('SIGINT');
      expect(said).toContain('SIGINT received, stopping the run');
      // The command listens now: the latch leaves the next signal to it, which quits at once.
      const all = added('SIGTERM', before.SIGTERM);
      expect(() => all.forEach((l) => l())).toThrow('quit');
      expect(outcomes).toEqual([{ kind: 'interrupted', signal: 'SIGTERM' }]);
      expect(quits).toEqual([]);
      stop.dispose();
      // Once the command has stopped listening, a signal quits at once.
      added('SIGINT', before.SIGINT)[0]!();
      expect(quits).toEqual(['SIGINT']);
    } finally {
      latch.uninstall();
    }
  });

  it('quits on a second signal while the command still loads', () => {
    const before = process.listeners('SIGINT');
    const quits: StopSignal[] = [];
    const latch = new SignalLatch((s) => void quits.push(s)).install();
    try {
      latch.keepForCommand();
      const [listener] = added('SIGINT', before);
      listener!();
      listener!();
      expect(quits).toEqual(['SIGINT']);
    } finally {
      latch.uninstall();
    }
  });
});
