import type { LiveLoad } from '../load/live-load.js';
import type { OutTarget } from '../outputs/out-target.js';
import type { RunIdentity } from '../outputs/run-figures.js';
import type { RunResult } from '../results/run-result.js';
import { toolInfo } from '../runner/tool-info.js';
import { terminalSafe } from '../log/terminal-safe.js';

/** The options of `load` and `run` that watch a run: metrics outputs, and (load) the live page. */
export interface WatchArgs {
  out?: OutTarget[] | undefined;
  /** The live page's port (0: a free one); absent: no live page. */
  dashboard?: number | undefined;
  'dashboard-host'?: string | undefined;
}

/** What watches one run, started before it and finished with its result. */
export interface RunWatchers {
  /** For `Harness.load`'s `onStart`: feeds the outputs and the live page from the load's recorder. */
  onStart: ((live: LiveLoad) => void) | undefined;
  /** Counts a finished case of a suite run. */
  caseFinished(c: { area: string; verdict: string }): void;
  /**
   * Sends the final figures (the report's) and stops. A run `stopped` by a
   * signal waits {@link STOPPED_WAIT_MS} at most (the person who stopped it
   * is waiting) and says so when that was not enough.
   */
  finish(result: RunResult, stopped?: boolean): Promise<void>;
  /** Stops without a result; a `stopped` run waits {@link STOPPED_WAIT_MS} at most. */
  close(stopped?: boolean): Promise<void>;
}

/**
 * Real ms a run stopped by a signal waits for its outputs' last push and
 * its live page's last frame, its report already written: a receiver that
 * answers takes milliseconds, a slow one held the exit up to its timeouts
 * (5 s for the push under way, 5 s for the last one).
 */
const STOPPED_WAIT_MS = 1000;

/** Waits for `work`, or for {@link STOPPED_WAIT_MS} at most when `stopped`, and then says what was left. */
async function untilDone(work: Promise<unknown>, stopped: boolean): Promise<void> {
  if (!stopped) {
    await work;
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), STOPPED_WAIT_MS);
  });
  try {
    const done = await Promise.race([work.then(() => true), late]);
    if (!done) warn(`the outputs' last push was not done within ${STOPPED_WAIT_MS / 1000} s: not waited for, since the run was stopped`);
  } finally {
    clearTimeout(timer);
  }
}

const warn = (line: string): void => {
  process.stderr.write(`svc-harness: ${terminalSafe(line)}\n`);
};

/** Starts what `--out` and `--dashboard` ask for (modules loaded only then); the live page's address goes to stderr. */
export async function startWatchers(args: WatchArgs, id: RunIdentity, baseUrl: string): Promise<RunWatchers> {
  const outputs =
    args.out && args.out.length > 0
      ? (await import('../outputs/run-outputs.js')).startOutputs({ targets: args.out, id, version: toolInfo().version, baseUrl, warn })
      : undefined;
  let page;
  try {
    page =
      args.dashboard !== undefined
        ? await (
            await import('../outputs/live/live-page.js')
          ).startLivePage({ runId: id.runId, host: args['dashboard-host'] ?? '127.0.0.1', port: args.dashboard })
        : undefined;
  } catch (e) {
    await outputs?.close();
    throw e;
  }
  if (page) process.stderr.write(`svc-harness: live page at ${page.url}\n`);
  return {
    onStart:
      outputs || page
        ? (live) => {
            outputs?.watchLoad(live);
            page?.watch(live);
          }
        : undefined,
    caseFinished: (c) => outputs?.caseFinished(c),
    async finish(result, stopped = false) {
      await untilDone(Promise.all([outputs?.finish(result), result.kind === 'load' ? page?.finish(result) : page?.close()]), stopped);
    },
    async close(stopped = false) {
      await untilDone(Promise.all([outputs?.close(), page?.close()]), stopped);
    },
  };
}
