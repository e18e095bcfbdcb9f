import type { LoadVerdict } from './load-result.js';
import { formatMoney } from './units.js';

/** The money of one wallet verdict under load, as its details carry it (minor units). */
export interface WalletFigures {
  agency: string;
  verdict: LoadVerdict['verdict'];
  currency: string | undefined;
  opening: number;
  debits: number;
  refunds: number;
  closing: number;
  /** closing − opening. */
  change: number;
}

function numberAt(details: Record<string, unknown>, key: string): number | undefined {
  const v = details[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The money figures of a wallet verdict; undefined for other verdicts and for a wallet that could not be read. */
export function walletFigures(v: LoadVerdict): WalletFigures | undefined {
  if (v.kind !== 'wallet') return undefined;
  const d = v.details ?? {};
  const [opening, debits, refunds, closing] = ['opening', 'debits', 'refunds', 'closing'].map((k) => numberAt(d, k));
  if (opening === undefined || debits === undefined || refunds === undefined || closing === undefined) return undefined;
  const currency = typeof d['currency'] === 'string' ? d['currency'] : undefined;
  return { agency: v.agency, verdict: v.verdict, currency, opening, debits, refunds, closing, change: closing - opening };
}

/** A change of balance with its sign and currency: `+120.00 EUR`, `-5 818.00 EUR`. */
export function formatMoneyChange(change: number, currency: string | undefined): string {
  return change > 0 ? `+${formatMoney(change, currency)}` : formatMoney(change, currency);
}

/** The net change of every wallet, summed per currency: `-5 818.00 EUR, -120.00 GBP`. */
export function netChangeByCurrency(wallets: readonly WalletFigures[]): string {
  const sums = new Map<string, { currency: string | undefined; sum: number }>();
  for (const w of wallets) {
    const key = w.currency ?? '';
    const s = sums.get(key) ?? { currency: w.currency, sum: 0 };
    s.sum += w.change;
    sums.set(key, s);
  }
  return [...sums.values()].map((s) => formatMoneyChange(s.sum, s.currency)).join(', ');
}
