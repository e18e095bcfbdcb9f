import { describe, expect, it } from 'vitest';
import { runClientCommand } from '../../../src/certify/client/run-client-command.js';

describe('runClientCommand', () => {
  it('kills the command when stop aborts, and says it was neither timed out nor a clean exit', async () => {
    const stop = new AbortController();
    const running = runClientCommand({
      command: 'echo started; sleep 60',
      env: {},
      timeoutMs: 120_000,
      stop: stop.signal,
      onLine: (line) => {
        if (line === 'started') stop.abort();
      },
    });
    const outcome = await running;
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBeNull();
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.output).toBe('started\n');
  });

  it('kills the command at once when stop had aborted before it started', async () => {
    const stop = new AbortController();
    stop.abort();
    const outcome = await runClientCommand({ command: 'sleep 60', env: {}, timeoutMs: 120_000, stop: stop.signal });
    expect(outcome.timedOut).toBe(false);
    expect(outcome.signal).toBe('SIGKILL');
  });
});
