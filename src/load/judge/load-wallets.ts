import { rateLimitRetry } from '../../api/rate-limit-retry.js';
import type { ClosableTargetApi } from '../../api/index.js';
import type { ApiResponse, StatementEntry } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import type { LoadVerdict } from '../../results/load-result.js';
import { withRetryPolicy } from '../../client/retry-scope.js';
import { isHarnessError } from '../../errors/harness-error.js';
import { announcedSleep, type OnLoadWait } from '../announced-wait.js';
import { reconcileWallet, type LedgerLine, type WalletTally } from './wallet-reconciliation.js';

/** A wallet as read before the load: its balance and the ids of the entries it already held. */
interface OpeningWallet {
  balance?: number | undefined;
  currency?: string | undefined;
  ids: Set<string>;
  ok: boolean;
}

/** Reads and reconciles the wallets of the agencies under load, each through its own target API. */
export interface LoadWallets {
  profile: Profile;
  apis: ReadonlyMap<string, ClosableTargetApi>;
  /** Moves the target clock (the embedded mock); absent for a real service, where the harness sleeps. */
  advance: ((ms: number) => Promise<void>) | undefined;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Told of every real-time wait longer than a second (a full read bucket's Retry-After). */
  onWait?: OnLoadWait | undefined;
}

/** Records one of the harness's own responses as an admission of the agency's read bucket. */
export type NoteAdmission = (agency: string, op: string, res: ApiResponse) => void;

interface WalletRead {
  balance?: number | undefined;
  currency?: string | undefined;
  entries: StatementEntry[];
  ok: boolean;
}

function ledgerLines(profile: Profile, entries: StatementEntry[]): LedgerLine[] {
  return entries.map((e) => ({
    id: e.id,
    type: e.type === profile.values.entry_debit ? 'debit' : e.type === profile.values.entry_refund ? 'refund' : 'other',
    amount: e.amount,
    bookingId: e.bookingId,
  }));
}

/** Balance and statement of one agency, 429s waited out (the mock's clock is moved, a real service is waited for); `note` sees every response when given. */
async function readWallet(w: LoadWallets, agency: string, note?: NoteAdmission): Promise<WalletRead> {
  const api = w.apis.get(agency)!;
  const wait = (ms: number): Promise<void> =>
    w.advance ? w.advance(ms) : announcedSleep(ms, `the read bucket of ${agency} is full: waiting out its Retry-After to read its wallet`, w.onWait);
  const policy = rateLimitRetry(w.profile, { wait, now: w.now, maxAttempts: 6, fallbackWaitMs: 1000, marginMs: 250 });
  const bal = await withRetryPolicy(policy, () => api.balance(note ? { onResponse: (r) => note(agency, 'setup.balance', r) } : {}));
  const st = await withRetryPolicy(policy, () => api.statement(note ? { onResponse: (r) => note(agency, 'setup.statement', r) } : {}));
  const stStatus = st.responses[st.responses.length - 1]?.status ?? 0;
  const ok = bal.status >= 200 && bal.status < 300 && stStatus >= 200 && stStatus < 300;
  return { balance: bal.amount, currency: bal.currency, entries: st.entries, ok };
}

/** Reads every agency's wallet before the load; these reads use bucket slots, so `note` records them. */
export async function openWallets(w: LoadWallets, agencies: readonly string[], note: NoteAdmission): Promise<Map<string, OpeningWallet>> {
  const opening = new Map<string, OpeningWallet>();
  await Promise.all(
    agencies.map(async (id) => {
      const read = await readWallet(w, id, note);
      opening.set(id, { balance: read.balance, currency: read.currency, ids: new Set(read.entries.map((e) => e.id ?? '')), ok: read.ok });
    }),
  );
  return opening;
}

/** Reads every wallet again after the load and reconciles it with what the load did: one verdict per agency. */
export async function reconcileWallets(w: LoadWallets, opening: ReadonlyMap<string, OpeningWallet>, tally: WalletTally): Promise<LoadVerdict[]> {
  return Promise.all(
    [...opening].map(async ([id, open]): Promise<LoadVerdict> => {
      let close: WalletRead;
      try {
        close = await readWallet(w, id);
      } catch (err) {
        // A target that died under the load: this wallet is an ERROR, and the figures measured so far are still reported.
        const code = isHarnessError(err) ? err.code : 'E_INTERNAL';
        const message = err instanceof Error ? err.message : String(err);
        return {
          id: `load:wallet:${id}`,
          kind: 'wallet',
          agency: id,
          verdict: 'ERROR',
          message: `wallet of ${id} could not be read after the load: ${message}`,
          details: { errorCode: code },
        };
      }
      if (!open.ok || !close.ok || open.balance === undefined || close.balance === undefined) {
        return {
          id: `load:wallet:${id}`,
          kind: 'wallet',
          agency: id,
          verdict: 'ERROR',
          message: `wallet of ${id} could not be read before and after the load`,
          details: {},
        };
      }
      const entries = ledgerLines(
        w.profile,
        close.entries.filter((e) => !open.ids.has(e.id ?? '')),
      );
      return reconcileWallet({ agency: id, opening: open.balance, closing: close.balance, currency: close.currency ?? open.currency, entries }, tally.of(id));
    }),
  );
}
