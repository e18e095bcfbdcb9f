import type { Check } from '../types.js';
import { currencyRatesCheck } from './currency-rates.js';
import { debitAndRefundCheck } from './debit-and-refund.js';
import { failedBookingCheck } from './failed-booking.js';
import { insufficientFundsCheck } from './insufficient-funds.js';
import { statementChainCheck } from './statement-chain.js';

/** The wallet checks (SPEC §1, §7; REF §5). */
export const walletChecks: Check[] = [statementChainCheck, debitAndRefundCheck, failedBookingCheck, insufficientFundsCheck, currencyRatesCheck];
