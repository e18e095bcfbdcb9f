import { describe, expect, it } from 'vitest';
import { offersFor } from '../../src/mock/domain/pricing.js';
import { quoteToken } from '../../src/mock/domain/quotes.js';
import { SearchAnswers, searchAnswerJson } from '../../src/mock/domain/search-answers.js';

const CASES: Array<[Parameters<typeof offersFor>[0], Record<string, string | number>]> = [
  ['flights', { origin: 'LIS', destination: 'MAD', departure_date: '2027-03-14', adults: 2 }],
  ['transfers', { pickup: 'Aeroporto "Humberto Delgado"', dropoff: 'C:\\path\\to', date: '2027-03-14', passengers: 3 }],
  ['activities', { destination: 'Zürich → Genève ☃', date: '2027-03-15', participants: 20 }],
  ['cars', { pickup_location: 'LIS', dropoff_location: 'OPO', pickup_date: '2027-03-14', dropoff_date: '2027-03-18', driver_age: 18 }],
];

describe('cached search answers', () => {
  it.each(CASES)('give the very bytes JSON.stringify gives for %s', (product, criteria) => {
    const answers = new SearchAnswers();
    const priced = answers.priced(product, criteria, 'EUR', 29_000_000);
    const offers = offersFor(product, criteria, 29_000_000);
    const tokens = { payload: 'eyJhIjoiYiJ9-_AbC', tag: 'T4g_x-Y', count: offers.length };
    const expires = '2026-11-21T10:15:00.000Z';
    const expected = JSON.stringify({
      results: offers.map((o, i) => ({
        result_id: o.resultId,
        product,
        summary: o.summary,
        price: { amount: o.amount, currency: 'EUR' },
        quote_token: quoteToken(tokens, i),
        quote_expires_at: expires,
      })),
    });
    expect(searchAnswerJson(priced, tokens, expires).utf8.toString('utf8')).toBe(expected);
    expect(priced.amounts).toEqual(offers.map((o) => o.amount));
  });

  it('write every offer its own token index, ten offers and more included', () => {
    const summaries = Array.from({ length: 12 }, (_, i) => `offer ${i} → "é"`);
    const heads = summaries.map((summary, i) => Buffer.from(`${JSON.stringify({ result_id: `r${i}`, summary }).slice(0, -1)},"quote_token":"`));
    const priced = { digest: 'd', amounts: summaries.map((_, i) => i), heads };
    const tokens = { payload: 'WyJhIl0', tag: 'tag_-9', count: 12 };
    const expires = '2027-01-02T03:04:05.006Z';
    const expected = JSON.stringify({
      results: summaries.map((summary, i) => ({ result_id: `r${i}`, summary, quote_token: quoteToken(tokens, i), quote_expires_at: expires })),
    });
    expect(searchAnswerJson(priced, tokens, expires).utf8.toString('utf8')).toBe(expected);
  });

  it('price one criteria object again for another currency or product', () => {
    const answers = new SearchAnswers();
    const [product, criteria] = CASES[0]!;
    const eur = answers.priced(product, criteria, 'EUR', 100);
    const usd = answers.priced(product, criteria, 'USD', 100);
    expect(usd).not.toBe(eur);
    expect(searchAnswerJson(usd, { payload: 'p', tag: 't', count: usd.amounts.length }, 'x').utf8.toString('utf8')).toContain('"currency":"USD"');
    expect(answers.priced(product, criteria, 'EUR', 100)).toBe(eur);
    expect(answers.priced('transfers', criteria, 'EUR', 100)).not.toBe(eur);
    expect(answers.priced(product, { ...criteria }, 'EUR', 100)).toBe(eur);
  });

  it('price again in the next minute, and hold at most their capacity', () => {
    const answers = new SearchAnswers(2);
    const [product, criteria] = CASES[0]!;
    const a = answers.priced(product, criteria, 'EUR', 100);
    expect(answers.priced(product, criteria, 'EUR', 100)).toBe(a);
    expect(answers.priced(product, criteria, 'EUR', 101).amounts).not.toEqual(a.amounts);
    answers.priced(product, { ...criteria, adults: 3 }, 'EUR', 101);
    answers.priced(product, { ...criteria, adults: 4 }, 'EUR', 101);
    const again = answers.priced(product, criteria, 'EUR', 101);
    expect(again).not.toBe(a);
    expect(answers.priced(product, criteria, 'EUR', 101)).toBe(again);
  });
});
