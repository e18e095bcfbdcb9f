import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from './api-error.js';
import { validationFailed } from './validation.js';
import { HarnessError } from '../../errors/harness-error.js';

/** One statement entry (REFERENCE-API.md section 5). */
interface LedgerEntry {
  entry_id: string;
  type: 'debit' | 'refund';
  /** Positive, minor units. */
  amount: number;
  balance_after: number;
  booking_id: string | null;
  created_at: string;
}

interface Account {
  currency: string;
  balance: number;
  /** Oldest first. */
  entries: LedgerEntry[];
}

/** A page of the statement, newest first. */
interface StatementPage {
  entries: LedgerEntry[];
  next_cursor: string | null;
}

/** Default and bounds of the statement's `limit`. */
const STATEMENT_LIMIT = { default: 50, min: 1, max: 200 } as const;

/**
 * The agencies' prepaid wallets as a ledger: the balance moves only with an
 * entry, so balance = opening − debits + refunds holds by construction.
 */
export class WalletLedger {
  private readonly accounts = new Map<string, Account>();
  private seq = 0;

  constructor(private readonly defects: DefectSet) {}

  /** Opens (or reopens, on reset) an agency's wallet. */
  open(agencyId: string, currency: string, balance: number): void {
    this.accounts.set(agencyId, { currency, balance, entries: [] });
  }

  /** Drops every wallet. */
  clear(): void {
    this.accounts.clear();
  }

  /** Current balance in minor units. */
  balance(agencyId: string): { currency: string; balance: number } {
    const a = this.account(agencyId);
    return { currency: a.currency, balance: a.balance };
  }

  /** Debits `amount`; 402 INSUFFICIENT_FUNDS when the balance is below it. */
  debit(agencyId: string, amount: number, bookingId: string | null, now: number, overdraft = false): LedgerEntry {
    const a = this.account(agencyId);
    if (a.balance < amount && !overdraft) {
      throw new ApiError(402, 'INSUFFICIENT_FUNDS', 'wallet balance is below the price', {
        balance: { amount: a.balance, currency: a.currency },
        price: { amount, currency: a.currency },
      });
    }
    return this.post(a, 'debit', amount, bookingId, now);
  }

  /** Credits a refund of `amount`. */
  refund(agencyId: string, amount: number, bookingId: string, now: number): LedgerEntry {
    return this.post(this.account(agencyId), 'refund', amount, bookingId, now);
  }

  /** A page of the statement, newest first; `cursor` is the `next_cursor` of the page before. */
  statement(agencyId: string, limitRaw: string | undefined, cursorRaw: string | undefined): StatementPage {
    const problems = [];
    let limit: number = STATEMENT_LIMIT.default;
    if (limitRaw !== undefined) {
      const inRange = Number(limitRaw) >= STATEMENT_LIMIT.min && Number(limitRaw) <= STATEMENT_LIMIT.max;
      if (/^-?\d{1,15}$/.test(limitRaw) && !inRange && this.defects.has('statement-limit-unchecked')) {
        limit = Math.min(STATEMENT_LIMIT.max, Math.max(STATEMENT_LIMIT.min, Number(limitRaw)));
      } else if (!/^\d{1,4}$/.test(limitRaw) || !inRange) {
        problems.push({ field: 'limit', message: `must be an integer from ${STATEMENT_LIMIT.min} to ${STATEMENT_LIMIT.max}` });
      } else limit = Number(limitRaw);
    }
    const a = this.account(agencyId);
    let entries = this.defects.has('statement-lists-others') ? this.everyEntry() : a.entries;
    if (this.defects.has('statement-drops-refunds')) entries = entries.filter((e) => e.type !== 'refund');
    // The cursor is the sequence number of the newest entry still to show.
    let start = entries.length - 1;
    if (cursorRaw !== undefined && cursorRaw !== '') {
      const m = /^c_(\d{1,12})$/.exec(cursorRaw);
      if (!m && this.defects.has('statement-cursor-not-found')) throw new ApiError(404, 'NOT_FOUND', 'no such statement cursor');
      if (!m) problems.push({ field: 'cursor', message: 'is not a cursor this API issued' });
      else {
        const seq = Number(m[1]);
        start = -1;
        for (let i = entries.length - 1; i >= 0; i--) {
          if (seqOf(entries[i]!) <= seq) {
            start = i;
            break;
          }
        }
      }
    }
    if (problems.length > 0) throw validationFailed(problems);
    const page: LedgerEntry[] = [];
    let i = start;
    for (; i >= 0 && page.length < limit; i--) page.push(entries[i]!);
    return { entries: page, next_cursor: i >= 0 ? `c_${seqOf(entries[i]!)}` : null };
  }

  /** Every agency's entries, oldest first. */
  private everyEntry(): LedgerEntry[] {
    return [...this.accounts.values()].flatMap((a) => a.entries).sort((x, y) => seqOf(x) - seqOf(y));
  }

  private account(agencyId: string): Account {
    const a = this.accounts.get(agencyId);
    if (!a) throw new HarnessError('E_INTERNAL', `no wallet for ${agencyId}`);
    return a;
  }

  private post(a: Account, type: LedgerEntry['type'], amount: number, bookingId: string | null, now: number): LedgerEntry {
    a.balance += type === 'debit' ? -amount : amount;
    this.seq += 1;
    const entry: LedgerEntry = {
      entry_id: `we_${String(this.seq).padStart(10, '0')}`,
      type,
      amount,
      balance_after: a.balance,
      booking_id: bookingId,
      created_at: new Date(now).toISOString(),
    };
    a.entries.push(entry);
    return entry;
  }
}

function seqOf(e: LedgerEntry): number {
  return Number(e.entry_id.slice(3));
}
