import { spawn } from 'node:child_process';

/** How a `--run` command ended. */
export interface ClientCommandOutcome {
  command: string;
  /** Exit code; null when it was killed. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** Its stdout and stderr, interleaved as they came, cut at {@link MAX_OUTPUT_BYTES}. */
  output: string;
  /** Set when the command could not be started at all. */
  error?: string;
}

/** Most output kept for the evidence. */
const MAX_OUTPUT_BYTES = 512 * 1024;

/**
 * Runs the agency's client command in a shell, with the certification
 * variables added to the environment, and kills its whole process group
 * when it outlives `timeoutMs` or when `stop` aborts (the CLI aborts it on
 * Ctrl-C: the group is a process group of its own, so the signal would not
 * reach it). Each output line is also handed to `onLine`.
 */
export function runClientCommand(input: {
  command: string;
  env: Record<string, string>;
  timeoutMs: number;
  cwd?: string;
  onLine?: (line: string) => void;
  stop?: AbortSignal | undefined;
}): Promise<ClientCommandOutcome> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let pending = '';
    let timedOut = false;
    const child = spawn(input.command, {
      shell: true,
      cwd: input.cwd,
      env: { ...process.env, ...input.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout ends the shell and everything it started.
      detached: process.platform !== 'win32',
    });
    const take = (d: Buffer): void => {
      if (size < MAX_OUTPUT_BYTES) {
        chunks.push(d.subarray(0, MAX_OUTPUT_BYTES - size));
        size += d.length;
      }
      if (input.onLine) {
        pending += d.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const l of lines) input.onLine(l);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const kill = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, input.timeoutMs);
    // Ending a child's process group is control over the child alone; the harness's own signals stay with the CLI.
    const interrupt = (): void => kill();
    if (input.stop?.aborted) kill();
    else input.stop?.addEventListener('abort', interrupt, { once: true });
    let error: string | undefined;
    child.on('error', (err) => {
      error = err.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      input.stop?.removeEventListener('abort', interrupt);
      if (pending !== '' && input.onLine) input.onLine(pending);
      resolve({
        command: input.command,
        exitCode: code,
        signal,
        timedOut,
        durationMs: Math.round(performance.now() - t0),
        output: Buffer.concat(chunks).toString('utf8'),
        ...(error !== undefined ? { error } : {}),
      });
    });
  });
}
