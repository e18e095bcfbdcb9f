/**
 * A duration for people, in one style wherever the harness prints or
 * renders one: `850 ms`, `12 s`, `3 min 5 s`, `4 min`, `2 h 5 min`. With
 * `tenths`, a duration under a minute keeps one decimal (`12.4 s`): a
 * report's run time, where a countdown or an estimate shows whole seconds.
 * `–` for a duration that is not one (negative, not finite).
 */
export function durationText(ms: number, options: { tenths?: boolean } = {}): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (options.tenths === true && ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const totalS = Math.round(ms / 1000);
  if (totalS < 60) return `${totalS} s`;
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  if (h > 0) return m === 0 ? `${h} h` : `${h} h ${m} min`;
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}
