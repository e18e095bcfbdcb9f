import type { ClosableTargetApi } from '../api/target-api.js';
import type { ApiResponse, StatementEntry } from '../api/types.js';
import type { Profile } from '../profile/types.js';
import type { LoadVerdict } from '../report/load-result.js';
import { patiently, type Advance } from './patiently.js';
import { reconcileWallet, type LedgerLine, type WalletTally } from './wallet-reconciliation.js';

/** A wallet as read before the load: its balance and the ids of the entries it already held. */
export interface OpeningWallet {
  balance?: number;
  ids: Set<string>;
  ok: boolean;
}

/** Reads and reconciles the wallets of the agencies under load, each through its own target API. */
export interface LoadWallets {
  profile: Profile;
  apis: ReadonlyMap<string, ClosableTargetApi>;
  advance: Advance | undefined;
}

/** Records one of the harness's own responses as an admission of the agency's read bucket. */
export type NoteAdmission = (agency: string, op: string, res: ApiResponse) => void;

interface WalletRead {
  balance?: number;
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

/** Balance and statement of one agency, 429s waited out; `note` sees every response when given. */
async function readWallet(w: LoadWallets, agency: string, note?: NoteAdmission): Promise<WalletRead> {
  const api = w.apis.get(agency)!;
  const bal = await patiently(w.advance, () => api.balance(), note ? (r) => note(agency, 'setup.balance', r) : undefined);
  const st = await patiently(
    w.advance,
    async () => {
      const s = await api.statement();
      const last = s.responses[s.responses.length - 1];
      return { ...s, status: last?.status ?? 0, rateLimit: last?.rateLimit };
    },
    note ? (s) => s.responses.forEach((r) => note(agency, 'setup.statement', r)) : undefined,
  );
  const ok = bal.status >= 200 && bal.status < 300 && st.status >= 200 && st.status < 300;
  return { balance: bal.amount, entries: st.entries, ok };
}

/** Reads every agency's wallet before the load; these reads use bucket slots, so `note` records them. */
export async function openWallets(w: LoadWallets, agencies: readonly string[], note: NoteAdmission): Promise<Map<string, OpeningWallet>> {
  const opening = new Map<string, OpeningWallet>();
  await Promise.all(
    agencies.map(async (id) => {
      const read = await readWallet(w, id, note);
      opening.set(id, { balance: read.balance, ids: new Set(read.entries.map((e) => e.id ?? '')), ok: read.ok });
    }),
  );
  return opening;
}

/** Reads every wallet again after the load and reconciles it with what the load did: one verdict per agency. */
export async function reconcileWallets(w: LoadWallets, opening: ReadonlyMap<string, OpeningWallet>, tally: WalletTally): Promise<LoadVerdict[]> {
  return Promise.all(
    [...opening].map(async ([id, open]): Promise<LoadVerdict> => {
      const close = await readWallet(w, id);
      if (!open.ok || !close.ok || open.balance === undefined || close.balance === undefined) {
        return { id: `load:wallet:${id}`, kind: 'wallet', agency: id, verdict: 'ERROR', message: `wallet of ${id} could not be read before and after the load`, details: {} };
      }
      const entries = ledgerLines(w.profile, close.entries.filter((e) => !open.ids.has(e.id ?? '')));
      return reconcileWallet({ agency: id, opening: open.balance, closing: close.balance, entries }, tally.of(id));
    }),
  );
}
