import type { Check } from '../types.js';
import { expiredQuoteCheck } from './expired-quote.js';
import { lockedPriceCheck } from './locked-price.js';
import { quoteFieldsCheck } from './quote-fields.js';
import { redeemedTwiceCheck } from './redeemed-twice.js';
import { unknownQuoteCheck } from './unknown-quote.js';

/** The quote checks (SPEC §1, §2; REF §5, §6). */
export const quotesChecks: Check[] = [quoteFieldsCheck, expiredQuoteCheck, lockedPriceCheck, unknownQuoteCheck, redeemedTwiceCheck];
