import type { StatementEntry } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';

/** What the entry does to the balance: minus for a debit, plus for a refund, undefined when unreadable. */
function signedAmount(entry: StatementEntry, profile: Profile): number | undefined {
  if (typeof entry.amount !== 'number') return undefined;
  if (entry.type === profile.values.entry_debit) return -entry.amount;
  if (entry.type === profile.values.entry_refund) return entry.amount;
  return undefined;
}

function label(entry: StatementEntry): string {
  return entry.id ?? `(entry of booking ${entry.bookingId ?? '?'})`;
}

/**
 * Problems of a statement read newest first: each entry readable, amounts
 * positive integers, and each balance_after equal to the older entry's
 * balance_after moved by this entry.
 */
export function chainProblems(entries: readonly StatementEntry[], profile: Profile): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    if (signedAmount(e, profile) === undefined)
      problems.push(`entry ${label(e)} has type "${String(e.type)}" or amount ${String(e.amount)} that cannot be read`);
    else if (!Number.isInteger(e.amount) || (e.amount ?? 0) <= 0) problems.push(`entry ${label(e)} amount ${String(e.amount)} is not a positive integer`);
    if (typeof e.balanceAfter !== 'number' || !Number.isInteger(e.balanceAfter)) problems.push(`entry ${label(e)} has no integer balance_after`);
  }
  if (problems.length > 0) return problems;
  for (let i = 0; i + 1 < entries.length; i++) {
    const newer = entries[i]!;
    const older = entries[i + 1]!;
    const want = older.balanceAfter! + signedAmount(newer, profile)!;
    if (newer.balanceAfter !== want) {
      problems.push(
        `entry ${label(newer)} (${String(newer.type)} ${String(newer.amount)}) has balance_after ${String(newer.balanceAfter)}, expected ${want} from the entry before it (${label(older)}, balance_after ${String(older.balanceAfter)})`,
      );
    }
  }
  return problems;
}

/** Entries newer than the entry `sinceId` (newest first); every entry when `sinceId` is undefined or absent. */
export function entriesSince(entries: readonly StatementEntry[], sinceId: string | undefined): StatementEntry[] {
  if (sinceId === undefined) return [...entries];
  const at = entries.findIndex((e) => e.id === sinceId);
  return at < 0 ? [...entries] : entries.slice(0, at);
}

/** Sum of the entries' effects on the balance (unreadable entries count 0). */
export function netEffect(entries: readonly StatementEntry[], profile: Profile): number {
  return entries.reduce((sum, e) => sum + (signedAmount(e, profile) ?? 0), 0);
}

/** Entries of one booking and one type. */
export function entriesFor(entries: readonly StatementEntry[], bookingId: string, type: string): StatementEntry[] {
  return entries.filter((e) => e.bookingId === bookingId && e.type === type);
}
