import type { Verdict } from '../../results/model.js';
import { html } from '../escape.js';

/** One colour per verdict, shared by badges, bars and charts. */
export const VERDICT_COLOUR: Record<Verdict, string> = {
  PASS: '#1a7f37',
  FAIL: '#cf222e',
  ERROR: '#8250df',
  WARN: '#b35900',
  SKIP: '#6e7781',
  // A known failure is still a failure, only excused: a muted red.
  KNOWN: '#a0686c',
};

/** Colour of an HTTP status in the charts: success, client refusal, server failure, no answer. */
export function statusColour(status: number): string {
  if (status >= 200 && status < 300) return '#1a7f37';
  if (status === 429) return '#cf222e';
  if (status >= 500) return '#cf222e';
  if (status >= 400) return '#b35900';
  return '#6e7781';
}

/** A small verdict badge. */
export function verdictBadge(v: Verdict): string {
  return `<span class="badge badge-${html(v.toLowerCase())}">${html(v)}</span>`;
}
