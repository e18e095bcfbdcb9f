import type { Check } from '../types.js';
import { responsesConformCheck } from './responses-conform.js';

/** The checks of the service's OpenAPI document. */
export const schemaChecks: Check[] = [responsesConformCheck];
