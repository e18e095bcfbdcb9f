import { Findings } from '../../../checks/findings.js';
import type { ClientCheck } from '../client-check.js';
import { isBooking, notExercised, ok, plural, productOf, quoteToken } from '../_internal/facts.js';

/**
 * CC-06: the second quote the client books is answered 410 QUOTE_EXPIRED
 * (on every attempt). Afterwards the client must not send that token again,
 * and must search the same product again.
 */
export const quoteExpiredCheck: ClientCheck = {
  id: 'CC-06',
  slug: 'quote-expired',
  title: 'an expired quote: searches again instead of retrying the dead token',
  area: 'quotes',
  clause: 'SPEC §1 quote flow',
  run({ mine: requests }) {
    const i = requests.findIndex((r) => r.injected === 'quote-expired');
    if (i === -1) return notExercised("it is injected into the second quote the client books, and the client's flows booked fewer than two quotes");
    const dead = requests[i]!;
    const token = quoteToken(dead);
    const product = productOf(dead.path);
    const later = requests.slice(i + 1);
    const retries = later.filter((r) => isBooking(r) && quoteToken(r) === token);
    const search = later.find((r) => r.method === 'POST' && r.path === `/v1/${product}/search` && ok(r.status));
    const details = { quote_token: token ?? null, product: product ?? null, retries_of_dead_token: retries.length, searched_again: search !== undefined };
    const f = new Findings().see(dead, ...retries.slice(0, 10), search);
    const problems: string[] = [];
    if (retries.length > 0) problems.push(`retried the expired quote ${plural(retries.length, 'time')}`);
    if (!search) problems.push(`never searched ${product} again`);
    if (problems.length > 0) f.fail(`after 410 QUOTE_EXPIRED: ${problems.join('; ')}`);
    return f.outcome(`after 410 QUOTE_EXPIRED, searched ${product} again and never resent the dead token`, details);
  },
};
