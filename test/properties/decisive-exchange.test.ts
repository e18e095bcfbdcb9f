import { afterEach, describe, expect, it } from 'vitest';
import { runProperties } from '../../properties/index.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import type { CaseResult } from '../../src/results/model.js';
import { sampleRun } from '../report/fixtures/sample-run.js';
import { startContext, type TestContext } from '../scenario/_context.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function failing(defect: string, name: string): Promise<{ r: CaseResult; t: TestContext }> {
  t = await startContext({ defects: [defect] });
  const [r] = await runProperties(t.ctx, { seed: 7, only: [name] });
  expect(r!.verdict, r!.message).toBe('FAIL');
  return { r: r!, t };
}

const labelOf = (t: TestContext, id: string): string => t.recorder.exchanges.find((x) => x.id === id)?.label ?? '';
const statusOf = (t: TestContext, id: string): number | undefined => t.recorder.exchanges.find((x) => x.id === id)?.response?.status;

describe('a failing property names the exchanges that broke it, first', () => {
  it('no-charge-on-429-and-failure: the booking answered 429, then the balance before and after it, ahead of the fill requests', async () => {
    const { r, t } = await failing('ratelimit-charges', 'no-charge-on-429-and-failure');
    const decisive = r.details?.decisive as string[];
    expect(decisive).toHaveLength(3);
    expect(statusOf(t, decisive[0]!)).toBe(429);
    expect(decisive.map((id) => labelOf(t, id).replace(/^property:\S+ /, ''))).toEqual([
      '#1 limited: booking',
      '#1 limited: balance before',
      '#1 limited: balance after',
    ]);
    expect(r.evidence.slice(0, 3)).toEqual(decisive);
    // The fill requests are still evidence, after the decisive ones.
    const fills = r.evidence.filter((id) => labelOf(t, id).endsWith('fill the write bucket'));
    expect(fills.length).toBeGreaterThan(10);

    const run = sampleRun({ cases: [r], exchanges: t.recorder.exchanges });
    // HTML: the decisive exchanges labelled, before the others, which are folded with their count.
    const page = renderHtml(run);
    const card = page.slice(page.indexOf('<article class="failure"'), page.indexOf('</article>'));
    const others = r.evidence.length - 3;
    expect(card).toContain('<b>Decisive exchanges (3)</b>');
    expect(card).toContain(`<details class="other-exchanges"><summary>${others} other exchanges of the run (setup, fills and the rest)</summary>`);
    expect(card.indexOf(decisive[0]!)).toBeLessThan(card.indexOf('class="other-exchanges"'));
    expect(card.indexOf(fills[0]!)).toBeGreaterThan(card.indexOf('class="other-exchanges"'));
    // The fill's alike requests in a row on one line, with their count.
    expect(card).toMatch(
      new RegExp(`${fills[0]} … ${fills.at(-1)} \\(${fills.length} alike\\) \\[property:no-charge-on-429-and-failure fill the write bucket\\]`),
    );

    // summary.md and junit.xml: the same order, the others folded (Markdown) or under their own heading.
    const md = renderMarkdown(run);
    const block = md.slice(md.indexOf('### FAIL `property:no-charge-on-429-and-failure`'));
    expect(block.indexOf('Decisive exchanges:')).toBeGreaterThan(0);
    expect(block.indexOf(decisive[0]!)).toBeLessThan(
      block.indexOf(`<details><summary>${others} other exchanges of the run (setup, fills and the rest)</summary>`),
    );
    expect(block.indexOf(`${fills[0]} … ${fills.at(-1)} (${fills.length} alike)`)).toBeGreaterThan(block.indexOf('<details>'));
    const xml = renderJunit(run);
    expect(xml.indexOf('Decisive exchanges:')).toBeGreaterThan(0);
    expect(xml.indexOf(`  ${decisive[0]} [`)).toBeLessThan(xml.indexOf(`${others} other exchanges of the run`));
  });

  it('idempotency-model: the requests executed together, when a concurrent burst executed more than one', async () => {
    const { r, t } = await failing('concurrent-double', 'idempotency-model');
    const decisive = r.details?.decisive as string[];
    expect(decisive.length).toBeGreaterThanOrEqual(1);
    expect(r.evidence.slice(0, decisive.length)).toEqual(decisive);
    for (const id of decisive) expect(labelOf(t, id)).toMatch(/burst\[k\d×\d\]$/);
  });

  it('idempotency-model: a broken replay keeps its pair first, decisive', async () => {
    const { r } = await failing('replay-differs', 'idempotency-model');
    const pair = r.details?.replayPair as { original: string; replay: string };
    expect((r.details!.decisive as string[]).slice(0, 2)).toEqual([pair.original, pair.replay]);
    expect(r.evidence.slice(0, 2)).toEqual([pair.original, pair.replay]);
  });
});
