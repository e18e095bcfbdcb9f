import { durationText } from '../log/duration-text.js';
import { terminalSafe } from '../log/terminal-safe.js';
import type { RunEvent } from './run-events.js';

/**
 * Renders run events as lines: a line per finished case (verdict, id, title, ms), plus the plan and waits.
 * Messages carry what the target answered: each line is made terminal-safe.
 */
export function progressPrinter(print: (line: string) => void): (event: RunEvent) => void {
  const write = (line: string): void => print(terminalSafe(line));
  return (event) => {
    switch (event.type) {
      case 'plan':
        write(planLine(event));
        break;
      case 'case-finished': {
        const r = event.result;
        const why = r.verdict === 'PASS' ? '' : `  ${r.message}`;
        write(`${r.verdict.padEnd(5)} ${r.id.padEnd(10)} ${r.title} (${r.durationMs} ms)${why}`);
        break;
      }
      case 'waiting':
        if (event.ms >= 1000) write(`      ${waitLine(event.ms, event.reason)}`);
        break;
      case 'note':
        write(event.message);
        break;
      default:
        break;
    }
  };
}

/** The line that opens a run: how many checks, and in real time how long the waits are estimated to take. */
export function planLine(event: Extract<RunEvent, { type: 'plan' }>): string {
  if (event.mode === 'real-time' && event.estimateMs !== undefined)
    return `The target's clock cannot be moved: waits happen in real time; ${event.checks} checks, estimated ${durationText(event.estimateMs)} (${durationText(event.serialMs ?? 0)} one by one).`;
  return `Running ${event.checks} checks${event.scenarios ? ', scenarios' : ''}${event.properties ? ', properties' : ''}, each on a freshly reset target.`;
}

/** A wait announced as it begins, with its length. */
export function waitLine(ms: number, reason: string): string {
  return `waiting ${durationText(ms)}: ${reason}`;
}
