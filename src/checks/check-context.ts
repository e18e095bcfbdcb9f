import type { CheckContext } from './types.js';

/** What every check of one run shares: a check context without the running check's own parts. */
export type RunScope = Omit<CheckContext, 'checkId' | 'label'>;

/** `text` as an exchange label of check (or case) `checkId`: `ID-01 replay`; the id alone for empty text. */
export function checkLabel(checkId: string, text: string): string {
  return text === '' ? checkId : `${checkId} ${text}`;
}

/**
 * The context of check `checkId` within a run: exchange labels start with its
 * id (`ID-01 replay`), and the webhook attempts it charts are attributed to it
 * unless they name a check already.
 */
export function checkContext(run: RunScope, checkId: string): CheckContext {
  return {
    ...run,
    checkId,
    label: (text) => checkLabel(checkId, text),
    timeline: {
      rateLimit: (point) => run.timeline.rateLimit(point),
      webhook: (point) => run.timeline.webhook(point.check ? point : { ...point, check: checkId }),
    },
  };
}
