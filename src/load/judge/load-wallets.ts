import { rateLimitRetry } from '../../api/rate-limit-retry.js';
import type { ClosableTargetApi } from '../../api/index.js';
import type { ApiResponse, StatementEntry } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import type { LoadVerdict } from '../../results/load-result.js';
import { withRetryPolicy } from '../../client/retry-scope.js';
import { withAbortSignal } from '../../client/abort-scope.js';
import { isHarnessError } from '../../errors/harness-error.js';
import { announcedSleep, type OnLoadWait } from '../announced-wait.js';
import { reconcileWallet, type LedgerLine, type WalletTally } from './wallet-reconciliation.js';

/** A wallet as read before the load: its balance and the ids of the entries it already held. */
interface OpeningWallet {
  balance?: number | undefined;
  currency?: string | undefined;
  ids: Set<string>;
  ok: boolean;
  /** Why it could not be read, when it could not. */
  why?: string | undefined;
  /** The read was given up for a signal. */
  interrupted?: boolean | undefined;
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
  /** Aborted by a stop: every wait and every read in flight gives way at once, and once aborted no read is sent. */
  signal?: AbortSignal | undefined;
}

/** Records one of the harness's own responses as an admission of the agency's read bucket. */
export type NoteAdmission = (agency: string, op: string, res: ApiResponse) => void;

interface WalletRead {
  balance?: number | undefined;
  currency?: string | undefined;
  entries: StatementEntry[];
  ok: boolean;
  /** Why it could not be read, when it could not. */
  why?: string | undefined;
}

function ledgerLines(profile: Profile, entries: StatementEntry[]): LedgerLine[] {
  return entries.map((e) => ({
    id: e.id,
    type: e.type === profile.values.entry_debit ? 'debit' : e.type === profile.values.entry_refund ? 'refund' : 'other',
    amount: e.amount,
    bookingId: e.bookingId,
  }));
}

/** Margin added to every Retry-After the wallet reads wait out, ms. */
const RETRY_MARGIN_MS = 250;

/** Why a read answered `res` instead of a balance or statement: a refusal not waited out says its Retry-After. */
function unreadWhy(w: LoadWallets, what: string, res: ApiResponse | undefined): string {
  if (!res) return `its ${what} was not answered`;
  if (res.status !== w.profile.errors.rate_limited.status) return `its ${what} answered ${res.status}`;
  const ra = res.rateLimit.retryAfterS;
  const windowS = w.profile.limits.window_s;
  if (w.signal?.aborted) return `its ${what} answered ${res.status}, and a stopped load waits for no Retry-After`;
  return ra !== undefined && ra > windowS
    ? `its ${what} answered ${res.status} with ${w.profile.headers.retry_after} ${ra} s, longer than the window of ${windowS} s: not waited for`
    : `its ${what} was still refused after waiting up to one window`;
}

/**
 * Balance and statement of one agency, 429s waited out (the mock's clock is
 * moved, a real service is waited for) up to one window for each read: a
 * Retry-After beyond it is not waited for (the verdicts judge it). A stop
 * ends any wait and aborts the request in flight at once (the exit never
 * waits for a slow answer, up to the request timeout); the caller sends no
 * read once the load is stopped. `note` sees every response when given.
 */
function readWallet(w: LoadWallets, agency: string, note?: NoteAdmission, phase: 'setup' | 'teardown' = 'setup'): Promise<WalletRead> {
  const read = () => readWalletOnce(w, agency, note, phase);
  return w.signal ? withAbortSignal(w.signal, read) : read();
}

async function readWalletOnce(w: LoadWallets, agency: string, note: NoteAdmission | undefined, phase: 'setup' | 'teardown'): Promise<WalletRead> {
  const api = w.apis.get(agency)!;
  const signal = w.signal;
  const wait = (ms: number): Promise<void> =>
    w.advance ? w.advance(ms) : announcedSleep(ms, `the read bucket of ${agency} is full: waiting out its Retry-After to read its wallet`, w.onWait, signal);
  const windowMs = w.profile.limits.window_s * 1000;
  const policy = rateLimitRetry(w.profile, {
    wait,
    now: w.now,
    maxAttempts: 6,
    fallbackWaitMs: 1000,
    marginMs: RETRY_MARGIN_MS,
    budgetMs: windowMs + RETRY_MARGIN_MS,
  });
  const bal = await withRetryPolicy(policy, () => api.balance(note ? { onResponse: (r) => note(agency, `${phase}.balance`, r) } : {}));
  const balOk = bal.status >= 200 && bal.status < 300;
  if (!balOk) return { entries: [], ok: false, why: unreadWhy(w, 'balance', bal) };
  const st = await withRetryPolicy(policy, () => api.statement(note ? { onResponse: (r) => note(agency, `${phase}.statement`, r) } : {}));
  const last = st.responses[st.responses.length - 1];
  const stOk = last !== undefined && last.status >= 200 && last.status < 300;
  return { balance: bal.amount, currency: bal.currency, entries: st.entries, ok: stOk, ...(stOk ? {} : { why: unreadWhy(w, 'statement', last) }) };
}

/** An error of a read given up for a stop, or thrown on its own. */
function stoppedRead(w: LoadWallets, err: unknown): boolean {
  return w.signal?.aborted === true && !(isHarnessError(err) && err.code !== 'E_TRANSPORT');
}

/** Reads every agency's wallet before the load; these reads use bucket slots, so `note` records them. */
export async function openWallets(w: LoadWallets, agencies: readonly string[], note: NoteAdmission): Promise<Map<string, OpeningWallet>> {
  const opening = new Map<string, OpeningWallet>();
  await Promise.all(
    agencies.map(async (id) => {
      if (w.signal?.aborted) {
        opening.set(id, { ids: new Set(), ok: false, interrupted: true });
        return;
      }
      try {
        const read = await readWallet(w, id, note);
        opening.set(id, { balance: read.balance, currency: read.currency, ids: new Set(read.entries.map((e) => e.id ?? '')), ok: read.ok, why: read.why });
      } catch (err) {
        if (!stoppedRead(w, err)) throw err;
        opening.set(id, { ids: new Set(), ok: false, interrupted: true });
      }
    }),
  );
  return opening;
}

/** Reads every wallet again after the load (`note` sees every response) and reconciles it with what the load did: one verdict per agency. */
export async function reconcileWallets(
  w: LoadWallets,
  opening: ReadonlyMap<string, OpeningWallet>,
  tally: WalletTally,
  note?: NoteAdmission,
): Promise<LoadVerdict[]> {
  return Promise.all(
    [...opening].map(async ([id, open]): Promise<LoadVerdict> => {
      const base = { id: `load:wallet:${id}`, kind: 'wallet' as const, agency: id };
      if (open.interrupted)
        return { ...base, verdict: 'SKIP', message: `wallet of ${id} not reconciled: the load was stopped while its opening balance was read`, details: {} };
      // Requests cut off at the stop may still be executing at the service (a read now could catch a booking half done), and a stopped load waits for nothing.
      if (w.signal?.aborted)
        return {
          ...base,
          verdict: 'SKIP',
          message: `wallet of ${id} not reconciled: the load was stopped, and a stopped load reads no wallet after it (requests cut off at the stop may still be executing)`,
          details: {},
        };
      let close: WalletRead;
      try {
        close = await readWallet(w, id, note, 'teardown');
      } catch (err) {
        if (stoppedRead(w, err))
          return { ...base, verdict: 'SKIP', message: `wallet of ${id} not reconciled: the load was stopped while its closing balance was read`, details: {} };
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
        const why = [open.why !== undefined ? `before the load ${open.why}` : '', close.why !== undefined ? `after the load ${close.why}` : '']
          .filter((s) => s !== '')
          .join('; ');
        return {
          ...base,
          // A stopped load that could not read a wallet has proven nothing about it, either way.
          verdict: w.signal?.aborted ? 'SKIP' : 'ERROR',
          message: `wallet of ${id} could not be read before and after the load${why !== '' ? `: ${why}` : ''}`,
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
