import type { Check } from '../types.js';
import { accountProductsCheck } from './account-products.js';
import { closedProductCheck } from './closed-product.js';
import { openProductsCheck } from './open-products.js';

/** The contract-scope checks (SPEC §1, §4, §5). */
export const contractChecks: Check[] = [accountProductsCheck, closedProductCheck, openProductsCheck];
