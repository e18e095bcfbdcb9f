/// <reference lib="dom" />
// The functions passed to page.evaluate run in the page, and are typed as such.
import type { Browser, Page } from 'playwright-core';
import type { PageCase } from './page-kinds.js';

/** The first screen a reader sees. */
export const FIRST_SCREEN = { width: 1280, height: 800 };

/** A page opened from its file, with everything it tried that a self-contained page must not. */
export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Every URL the page asked for that is not its own file (each was refused). */
  outside: string[];
  close(): Promise<void>;
}

/**
 * Opens a page file in a fresh context whose every request but `file:` is
 * refused and recorded, so a page that reaches out fails whether or not its
 * own Content-Security-Policy would have stopped it.
 */
export async function openPage(browser: Browser, file: string): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: FIRST_SCREEN });
  const errors: string[] = [];
  const outside: string[] = [];
  const refuse = (url: string) => {
    if (!outside.includes(url)) outside.push(url);
  };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    refuse(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file:') && !url.startsWith('data:')) refuse(url);
  });
  page.on('websocket', (w) => refuse(w.url()));
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  return { page, errors, outside, close: () => context.close() };
}

/** The box of the first element a selector matches, relative to the first screen (the page scrolled to its top). */
export async function boxOnFirstScreen(page: Page, selector: string): Promise<{ top: number; bottom: number; left: number; right: number } | undefined> {
  return page.evaluate((sel) => {
    window.scrollTo(0, 0);
    const el = document.querySelector(sel);
    if (!el) return undefined;
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  }, selector);
}

/** The buttons of the filter toolbar: their key, label and the count they show. */
export async function filterButtons(page: Page): Promise<Array<{ key: string; label: string }>> {
  return page.$$eval('[data-filter]', (bs) => bs.map((b) => ({ key: b.getAttribute('data-filter') ?? '', label: (b.textContent ?? '').trim() })));
}

/** Clicks a filter button, as a reader would, and reads which case rows are shown, which evidence rows follow them, and whether that button alone shows as pressed. */
export async function applyFilter(page: Page, key: string): Promise<{ shown: string[]; evidenceMismatch: string[]; pressed: boolean }> {
  await page.click(`[data-filter="${key}"]`);
  return page.evaluate((pressed) => {
    const visible = (el: Element) => el.getClientRects().length > 0;
    const shown: string[] = [];
    const evidenceMismatch: string[] = [];
    const pressedNow = Array.from(document.querySelectorAll('[data-filter]'))
      .filter((b) => b.getAttribute('aria-pressed') === 'true')
      .map((b) => b.getAttribute('data-filter') ?? '');
    let last: Element | undefined;
    for (const tr of Array.from(document.querySelectorAll('table.cases tbody tr'))) {
      if (tr.classList.contains('ev')) {
        // An evidence row belongs to the case row above it: shown exactly when it is.
        if (!last || visible(tr) !== visible(last)) evidenceMismatch.push(last?.id ?? '(no case row above)');
        continue;
      }
      last = tr;
      if (visible(tr)) shown.push(tr.id);
    }
    return { shown, evidenceMismatch, pressed: pressedNow.length === 1 && pressedNow[0] === pressed };
  }, key);
}

/** Which cases a filter must show, by the meaning of its button, from the result data. */
export function expectedRows(cases: readonly PageCase[], key: string): string[] {
  const match: Record<string, (c: PageCase) => boolean> = {
    all: () => true,
    failing: (c) => c.verdict === 'FAIL' || c.verdict === 'ERROR',
    WARN: (c) => c.verdict === 'WARN',
    SKIP: (c) => c.verdict === 'SKIP',
    PASS: (c) => c.verdict === 'PASS',
  };
  const m = match[key];
  if (!m) throw new Error(`no expectation for filter ${key}`);
  return cases.filter(m).map((c) => c.anchor);
}

/** Every other collapsible of the page (a failure's headers and bodies, a pretty-printed body…): those that stay shut or show nothing when their summary is clicked. */
export async function collapsiblesThatFail(page: Page): Promise<{ count: number; failing: string[] }> {
  return page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('details')).filter((d) => !d.classList.contains('evidence') && d.getClientRects().length > 0);
    const failing: string[] = [];
    for (const d of all) {
      const summary = d.querySelector(':scope > summary') as HTMLElement | null;
      const label = (summary?.textContent ?? '(no summary)').trim();
      if (!summary) {
        failing.push(label);
        continue;
      }
      const before = d.open;
      summary.click();
      const body = Array.from(d.children).filter((c) => c.tagName !== 'SUMMARY');
      if (d.open === before || (d.open && !body.some((c) => c.getClientRects().length > 0))) failing.push(label);
    }
    return { count: all.length, failing };
  });
}

/** Every in-page link: followed by a click, whether its target exists and is then on the screen. */
export async function followInPageLinks(page: Page): Promise<{ count: number; broken: string[] }> {
  return page.evaluate(() => {
    const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]'));
    const broken: string[] = [];
    for (const a of links) {
      const href = a.getAttribute('href') ?? '';
      const target = document.getElementById(decodeURIComponent(href.slice(1)));
      if (!target) {
        broken.push(`${href}: no element with that id`);
        continue;
      }
      window.scrollTo(0, 0);
      a.click();
      const r = target.getBoundingClientRect();
      if (r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight)
        broken.push(`${href}: followed, but the target is not on the screen (top ${Math.round(r.top)}, height ${Math.round(r.height)})`);
    }
    return { count: links.length, broken };
  });
}

/** What one chart draws. */
export interface ChartFacts {
  label: string;
  width: number;
  height: number;
  /** Data marks with a size: bars, dots, refusal marks (each carrying its tooltip) and polylines of two points or more. */
  marks: number;
  /** Texts of the chart that are not inside a data mark: tick values, axis titles, row names. */
  labels: string[];
}

/** Every SVG chart of the page, measured as laid out. */
export async function chartFacts(page: Page): Promise<ChartFacts[]> {
  return page.$$eval('svg', (svgs) =>
    svgs.map((svg) => {
      const r = svg.getBoundingClientRect();
      const sized = (el: SVGGraphicsElement) => {
        const b = el.getBBox();
        return b.width > 0 || b.height > 0;
      };
      const marks = Array.from(svg.querySelectorAll<SVGGraphicsElement>('rect, circle, path, polyline')).filter((el) => {
        if (el.tagName === 'polyline') return (el.getAttribute('points') ?? '').trim().split(/\s+/).filter(Boolean).length >= 2 && sized(el);
        // A data mark carries its tooltip, on itself or on the group it is drawn in; a background does not.
        const titled =
          el.querySelector(':scope > title') !== null || (el.parentElement?.tagName === 'g' && el.parentElement.querySelector(':scope > title') !== null);
        return titled && sized(el);
      }).length;
      const labels = Array.from(svg.querySelectorAll('text'))
        .filter((t) => t.closest('g > title') === null && t.parentElement?.querySelector(':scope > title') === null)
        .map((t) => (t.textContent ?? '').trim())
        .filter(Boolean);
      return { label: svg.getAttribute('aria-label') ?? '(no label)', width: r.width, height: r.height, marks, labels };
    }),
  );
}
