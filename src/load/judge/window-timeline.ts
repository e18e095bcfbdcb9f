import type { Admission } from './window-verdicts.js';

/**
 * A bucket's admissions per second around a window over the limit, for the
 * report to draw it: bounded whatever the traffic (at most
 * {@link MAX_TIMELINE_BINS} counts per list, never a list of requests).
 */
interface WindowTimeline {
  /** Where the first bin starts, target clock, ms: a whole number of bins before the window's start. */
  from: number;
  /** Width of a bin, ms: 1000 unless the window is too long for one bin a second. */
  binMs: number;
  /** Requests of the bucket admitted in each bin, by the instant they were sent. */
  admitted: number[];
  /** Of those, the ones the verdict counted in the window (sent in it and answered before its end): zero outside it. */
  counted: number[];
}

/** Most bins a timeline holds; a longer window gets wider bins. */
export const MAX_TIMELINE_BINS = 600;

/** Seconds drawn before and after the window: a sixth of it, at least 5 s. */
function marginMs(windowMs: number): number {
  return Math.max(5_000, windowMs / 6);
}

/**
 * The timeline of `admitted` (the bucket's proven admissions) around the
 * window [windowStart, windowStart + windowMs): the window and a margin on
 * each side, cut to where the bucket's traffic began and ended but never
 * inside the window. Bins are aligned on the window's start, so the window
 * is whole bins.
 */
export function windowTimeline(admitted: readonly Admission[], windowStart: number, windowMs: number): WindowTimeline {
  const windowEnd = windowStart + windowMs;
  const margin = marginMs(windowMs);
  const binMs = Math.max(1000, Math.ceil((windowMs + 2 * margin) / MAX_TIMELINE_BINS / 1000) * 1000);
  let first = windowStart;
  let last = windowEnd;
  for (const a of admitted) {
    if (a.sentAt < first) first = a.sentAt;
    if (a.sentAt > last) last = a.sentAt;
  }
  const before = Math.ceil(Math.min(margin, windowStart - first) / binMs);
  const from = windowStart - before * binMs;
  const to = Math.max(windowEnd, Math.min(windowEnd + margin, last + 1));
  const bins = Math.min(MAX_TIMELINE_BINS, Math.ceil((to - from) / binMs));
  const counts = new Array<number>(bins).fill(0);
  const counted = new Array<number>(bins).fill(0);
  for (const a of admitted) {
    const i = Math.floor((a.sentAt - from) / binMs);
    if (i < 0 || i >= bins) continue;
    counts[i]! += 1;
    // The verdict's own count: sent in the window and answered before it ended (see findOverAdmissions).
    if (a.sentAt >= windowStart && a.sentAt < windowEnd && a.receivedAt < windowEnd) counted[i]! += 1;
  }
  return { from, binMs, admitted: counts, counted };
}
