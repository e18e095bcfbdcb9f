import type { Check } from '../types.js';
import { envelopeEverywhereCheck } from './envelope-everywhere.js';
import { errorCatalogueCheck } from './error-catalogue.js';

/** The error checks (SPEC §7, REF §4). */
export const errorsChecks: Check[] = [envelopeEverywhereCheck, errorCatalogueCheck];
