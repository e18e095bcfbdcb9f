import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, SKIPPED_LINE } from './chromium.js';
import {
  applyFilter,
  boxOnFirstScreen,
  chartFacts,
  collapsiblesThatFail,
  expectedRows,
  filterButtons,
  FIRST_SCREEN,
  followInPageLinks,
  openPage,
  type OpenedPage,
} from './page-checks.js';
import { PAGE_KINDS, type PageUnderTest } from './page-kinds.js';

/** Pages and their screenshots, kept for a reviewer to look at (git-ignored). */
const OUT = path.resolve('test-output/browser');
const executable = findChromium();
/** `BROWSER_PAGES=run-fail,certificate` tries only those kinds of page (all by default). */
const only = process.env['BROWSER_PAGES']
  ?.split(',')
  .map((k) => k.trim())
  .filter(Boolean);
const KINDS = PAGE_KINDS.filter((k) => !only || only.includes(k.kind));
/** `BROWSER_FULL_PAGE=1` also writes a screenshot of each whole page (beside the first screen's, always written). */
const FULL_PAGE = process.env['BROWSER_FULL_PAGE'] === '1';
// One line, not a failure: a machine without Chromium still runs every other test.
if (!executable) process.stdout.write(`${SKIPPED_LINE}\n`);

describe.skipIf(!executable)('the report pages in a real browser', () => {
  let browser: Browser;
  const pages = new Map<string, PageUnderTest>();

  beforeAll(async () => {
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    const [b] = await Promise.all([
      launchChromium(executable!),
      // Every page from a real run against the mock, generated once, side by side.
      ...KINDS.map(async (k) => {
        const dir = path.join(OUT, 'pages', k.kind);
        await mkdir(dir, { recursive: true });
        pages.set(k.kind, await k.make(dir));
      }),
    ]);
    browser = b!;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe.each(KINDS.map((k) => k.kind))('%s', (kind) => {
    let page: PageUnderTest;
    let opened: OpenedPage;

    beforeAll(async () => {
      page = pages.get(kind)!;
      opened = await openPage(browser, page.file);
    });

    afterAll(async () => {
      // Whatever happened above must have left the page clean: a click that throws is a page error too.
      await opened?.close();
    });

    it('opens on its verdict (a failing run also on its first failure card) within the first screen, no wider than it; writes its screenshot', async () => {
      const p = opened.page;
      if (page.verdict === undefined) expect(await p.locator('.banner .verdict').count(), 'a verdict on a page that judges nothing').toBe(0);
      else expect(await p.locator('.banner .verdict strong').first().textContent()).toBe(page.verdict);
      const inside = (box: Awaited<ReturnType<typeof boxOnFirstScreen>>, what: string) => {
        expect(box, `${what} is missing`).toBeDefined();
        expect(box!.top, what).toBeGreaterThanOrEqual(0);
        expect(box!.left, what).toBeGreaterThanOrEqual(0);
        expect(box!.bottom, `${what} ends below the first screen`).toBeLessThanOrEqual(FIRST_SCREEN.height);
        expect(box!.right, `${what} ends right of the first screen`).toBeLessThanOrEqual(FIRST_SCREEN.width);
      };
      inside(await boxOnFirstScreen(p, '.banner'), 'the verdict banner');
      if (page.firstFailure) {
        // The card's head and the sentence saying what broke: enough to read the failure without scrolling.
        inside(await boxOnFirstScreen(p, `${page.firstFailure} header`), "the first failure card's head");
        inside(await boxOnFirstScreen(p, `${page.firstFailure} .msg`), 'what the first failure broke');
      }
      // A long unbroken value (a token, a URL) must wrap, not widen the page into a sideways scroll.
      expect(await p.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(FIRST_SCREEN.width);
      await p.screenshot({ path: path.join(OUT, `${kind}.first-screen.png`) });
      // The whole page too, for a reviewer who asks for it: it is about a fifth of the browser's CPU here, and nothing judges it.
      if (FULL_PAGE) await p.screenshot({ path: path.join(OUT, `${kind}.png`), fullPage: true });
    });

    it('shows exactly the right rows under each filter button', async () => {
      const buttons = await filterButtons(opened.page);
      if (!page.cases) {
        expect(buttons).toEqual([]);
        return;
      }
      expect(buttons.map((b) => b.key)).toEqual(['all', 'failing', 'WARN', 'SKIP', 'PASS']);
      for (const key of ['failing', 'WARN', 'SKIP', 'PASS', 'all']) {
        const want = expectedRows(page.cases, key);
        const { shown, evidenceMismatch, pressed } = await applyFilter(opened.page, key);
        expect(pressed, `${key} alone shows as pressed`).toBe(true);
        expect([...shown].sort(), `rows shown under ${key}`).toEqual([...want].sort());
        expect(evidenceMismatch, `evidence rows not following their case under ${key}`).toEqual([]);
        expect(buttons.find((b) => b.key === key)!.label, `count on the ${key} button`).toMatch(new RegExp(` ${want.length}$`));
      }
    });

    it('"Expand all evidence" opens every evidence block', async () => {
      const p = opened.page;
      const blocks = p.locator('details.evidence');
      const expected = page.cases?.filter((c) => c.evidence).length ?? 0;
      expect(await blocks.count()).toBe(expected);
      if (!page.cases) return;
      await p.click('[data-filter="all"]');
      await p.click('#toggle-evidence');
      const state = await blocks.evaluateAll((ds) =>
        ds.map((d) => ({
          open: (d as HTMLDetailsElement).open,
          shown: Array.from(d.children)
            .filter((c) => c.tagName !== 'SUMMARY')
            .every((c) => c.getClientRects().length > 0),
        })),
      );
      expect(state.filter((s) => !s.open || !s.shown)).toEqual([]);
      await p.click('#toggle-evidence');
      expect(await blocks.evaluateAll((ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(0);
    });

    it('every other collapsible opens on a click and shows what it holds', async () => {
      const { failing } = await collapsiblesThatFail(opened.page);
      expect(failing).toEqual([]);
    });

    it('every in-page link lands on an element that exists', async () => {
      const { count, broken } = await followInPageLinks(opened.page);
      expect(broken).toEqual([]);
      if (page.firstFailure) expect(count).toBeGreaterThan(0);
    });

    it('every chart has a size, a drawn series and labelled axes', async () => {
      const charts = await chartFacts(opened.page);
      expect(charts.length).toBeGreaterThanOrEqual(page.charts);
      for (const c of charts) {
        expect(c.width * c.height, `${c.label}: size`).toBeGreaterThan(0);
        expect(c.marks, `${c.label}: drawn data`).toBeGreaterThan(0);
        expect(c.labels.filter((l) => /\d/.test(l)).length, `${c.label}: tick values`).toBeGreaterThanOrEqual(2);
        expect(
          c.labels.some((l) => /[a-z]{3,} [a-z]{3,}/i.test(l)),
          `${c.label}: an axis title`,
        ).toBe(true);
      }
    });

    it('prints to PDF', async () => {
      const pdf = await opened.page.pdf({ format: 'A4', printBackground: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('logged no error and asked for nothing outside its file', () => {
      expect({ errors: opened.errors, outside: opened.outside }).toEqual({ errors: [], outside: [] });
    });
  });
});
