import { describe, expect, it } from 'vitest';
import type { CommandOutcome } from '../../src/cli/exit-codes.js';
import { stopOnSignals } from '../../src/cli/stop-on-signals.js';

/** The listeners `stopOnSignals` added for `signal` (called directly: a real signal would reach the test runner too). */
function added(signal: 'SIGINT' | 'SIGTERM', before: NodeJS.SignalsListener[]): Array<() => void> {
  return process.listeners(signal).filter((l) => !before.includes(l)) as Array<() => void>;
}

describe('stopOnSignals', () => {
  it('the first signal aborts and says so, a second quits at once with the signal it names; dispose stops listening', () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const quits: CommandOutcome[] = [];
    let said = '';
    const stop = stopOnSignals(
      {
        quit: (outcome) => {
          quits.push(outcome);
          throw new Error('quit');
        },
      },
      'the run',
      { write: (s: string) => ((said += s), true) },
    );
    const onTerm = added('SIGTERM', before.SIGTERM);
    const onInt = added('SIGINT', before.SIGINT);
    expect(onTerm).toHaveLength(1);
    expect(onInt).toHaveLength(1);
    expect(stop.signal.aborted).toBe(false);
    onTerm[0]!();
    expect(stop.signal.aborted).toBe(true);
    expect(stop.stoppedBy()).toBe('SIGTERM');
    expect(said).toContain('SIGTERM received, stopping the run (a second signal to quit at once); the report of what ran is still written');
    expect(quits).toEqual([]);
    expect(() => onInt[0]!()).toThrow('quit');
    expect(quits).toEqual([{ kind: 'interrupted', signal: 'SIGINT' }]);
    // The first signal is the one the run stopped for.
    expect(stop.stoppedBy()).toBe('SIGTERM');
    stop.dispose();
    expect(added('SIGINT', before.SIGINT)).toEqual([]);
    expect(added('SIGTERM', before.SIGTERM)).toEqual([]);
  });
});
