import { durationText } from '../log/duration-text.js';
import { terminalSafe } from '../log/terminal-safe.js';
import type { RunEvent } from '../runner/run-events.js';
import { planLine, waitLine } from '../runner/progress-printer.js';

/** Seconds between two plain progress lines (no terminal, or CI). */
const PLAIN_EVERY_MS = 5000;

/** How often the bar is redrawn on a terminal, so that its countdowns move. */
const TICK_MS = 1000;

/** Width of the bar, characters. */
const BAR_WIDTH = 24;

/** Where a run's progress goes, and the clock it is timed by (a test gives its own). */
interface RunProgressOptions {
  /** Progress and waits go here. @defaultValue process.stderr */
  stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;
  /** Result lines go to the other stream; when it is the same terminal the bar is cleared before each. @defaultValue process.stdout.isTTY */
  resultsOnTerminal?: boolean;
  /** `CI` set: plain lines, never a bar. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
  /** @defaultValue performance.now */
  now?: () => number;
  /** Redraws on a timer; off in a test that calls `tick` itself. @defaultValue true */
  timer?: boolean;
}

/** The progress of a `run`: fed run events, it shows what is done, what is left, and the waits in progress. */
interface RunProgress {
  /** Takes a run event. */
  update(event: RunEvent): void;
  /** Clears the bar before a result line is written to the other stream (they may share a terminal). */
  beforeResultLine(): void;
  /** Redraws the bar, or writes a plain line when one is due. */
  tick(): void;
  /** Stops the timer and leaves the terminal's line clean. */
  done(): void;
}

interface Wait {
  endsAt: number;
  ms: number;
  reason: string;
}

/**
 * A run's progress on stderr: on a terminal, a bar with the share done, the
 * time left (the plan's estimate in real time, the pace of the checks so far
 * otherwise) and the longest wait in progress counting down; without a
 * terminal, or with `CI` set, a plain line every few seconds and one line as
 * each wait of a second or more begins. Lines quote the target: each is made
 * terminal-safe.
 */
export function runProgress(options: RunProgressOptions = {}): RunProgress {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  const now = options.now ?? (() => performance.now());
  const bar = stream.isTTY === true && !env.CI;
  const resultsOnTerminal = options.resultsOnTerminal ?? process.stdout.isTTY === true;
  const startedAt = now();
  let checks = 0;
  let checksDone = 0;
  let casesDone = 0;
  let estimateMs: number | undefined;
  let lastPlain = startedAt;
  let drawn = false;
  let finished = false;
  const waits: Wait[] = [];
  const write = (text: string): void => void stream.write(text);

  const activeWaits = (at: number): Wait[] => {
    for (let i = waits.length - 1; i >= 0; i--) if (waits[i]!.endsAt <= at) waits.splice(i, 1);
    return [...waits].sort((a, b) => b.endsAt - a.endsAt);
  };
  /** The share done, 0 to 1, and the time left when it can be told. */
  const progress = (at: number): { share: number; leftMs: number | undefined } => {
    const elapsed = at - startedAt;
    if (estimateMs !== undefined && estimateMs > 0) {
      // Past the estimate the run is not done until it says so: the bar stops short of full.
      return { share: Math.min(0.99, elapsed / estimateMs), leftMs: Math.max(0, estimateMs - elapsed) };
    }
    if (checks === 0) return { share: 0, leftMs: undefined };
    const share = Math.min(1, checksDone / checks);
    return { share, leftMs: checksDone > 0 && share < 1 ? (elapsed / checksDone) * (checks - checksDone) : undefined };
  };
  const status = (at: number): string => {
    const { share, leftMs } = progress(at);
    const parts = [
      `${checksDone}/${checks} checks${casesDone > checksDone ? `, ${casesDone - checksDone} other cases` : ''}`,
      `${durationText(at - startedAt)} elapsed`,
    ];
    if (leftMs !== undefined) parts.push(estimateMs !== undefined && leftMs === 0 ? 'past the estimate' : `about ${durationText(leftMs)} left`);
    const open = activeWaits(at);
    const first = open[0];
    const waiting = first
      ? `waiting ${durationText(Math.max(0, first.endsAt - at))}: ${first.reason}${open.length > 1 ? ` (and ${open.length - 1} more)` : ''}`
      : '';
    const text = `${parts.join(', ')}${waiting ? `; ${waiting}` : ''}`;
    return bar ? `[${'#'.repeat(Math.round(share * BAR_WIDTH)).padEnd(BAR_WIDTH, '.')}] ${text}` : `run: ${text}`;
  };
  const draw = (): void => {
    if (finished) return;
    const at = now();
    if (bar) {
      write(`\r${terminalSafe(status(at))}\u001b[K`);
      drawn = true;
    } else if (at - lastPlain >= PLAIN_EVERY_MS) {
      write(`${terminalSafe(status(at))}\n`);
      lastPlain = at;
    }
  };
  const line = (text: string): void => {
    clear();
    write(`${terminalSafe(text)}\n`);
    if (bar) draw();
  };
  const clear = (): void => {
    if (drawn) write('\r\u001b[K');
    drawn = false;
  };
  const timer = options.timer === false ? undefined : setInterval(draw, TICK_MS);
  // Progress never keeps a finished process alive.
  timer?.unref();

  return {
    update(event) {
      switch (event.type) {
        case 'plan':
          checks = event.checks;
          estimateMs = event.estimateMs;
          line(planLine(event));
          break;
        case 'case-finished':
          casesDone += 1;
          if (event.result.kind === 'check') checksDone += 1;
          if (bar) draw();
          break;
        case 'waiting': {
          if (event.ms < 1000) break;
          waits.push({ endsAt: now() + event.ms, ms: event.ms, reason: event.reason });
          // Announced with its length as it begins; on a terminal the bar counts it down.
          if (bar) draw();
          else line(waitLine(event.ms, event.reason));
          break;
        }
        case 'note':
          line(event.message);
          break;
        default:
          break;
      }
    },
    beforeResultLine() {
      if (resultsOnTerminal) clear();
    },
    tick: draw,
    done() {
      if (timer) clearInterval(timer);
      clear();
      finished = true;
    },
  };
}
