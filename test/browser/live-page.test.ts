import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadRunResult } from '../../src/results/run-result.js';
import { cliArgs } from '../helpers/cli-entry.js';
import { findChromium, launchChromium, SKIPPED_LINE } from './chromium.js';

/** Screenshots of the live page, kept for a reviewer to look at (git-ignored). */
const OUT = path.resolve('test-output/browser');
const executable = findChromium();
/** Seconds of load the page is watched for: 6 in the suite; `LIVE_PAGE_SECONDS=60` watches a minute, as a reviewer would. */
const SECONDS = Number(process.env.LIVE_PAGE_SECONDS ?? 6);
if (!executable) process.stdout.write(`${SKIPPED_LINE}\n`);

describe.skipIf(!executable)('the live page of a load in a real browser', () => {
  let browser: Browser;
  let dir = '';
  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    dir = await mkdtemp(path.join(tmpdir(), 'live-page-'));
    browser = await launchChromium(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "updates while the load runs, and ends on the report's figures",
    async () => {
      const child = spawn(
        process.execPath,
        [
          ...cliArgs(),
          'load',
          '--agencies',
          '3',
          '--read-limit',
          '40',
          '--duration',
          String(SECONDS),
          '--push-limits',
          '--dashboard',
          '0',
          '--threshold',
          'rps>=1',
          '--threshold',
          'rps>=100000000',
          '--report-dir',
          dir,
          '--json',
        ],
        { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const m = /live page at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.on('close', () => reject(new Error(`the load ended without a live page:\n${stderr}`)));
      });
      const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/EventSource|net::ERR/.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      const value = (key: string) => page.locator(`[data-key="${key}"]`).first().getAttribute('data-value');
      // Running: the count grows from one frame to the next.
      await page.waitForSelector('body[data-state="running"]');
      await page.waitForFunction(() => Number(document.querySelector('[data-key="requests"]')?.getAttribute('data-value')) > 0);
      const first = Number(await value('requests'));
      await page.waitForFunction((n) => Number(document.querySelector('[data-key="requests"]')?.getAttribute('data-value')) > n, first, { timeout: 20_000 });
      expect(await page.locator('#buckets tbody tr').count()).toBeGreaterThan(0);
      expect(await page.locator('#gates tbody tr').count()).toBe(2);
      await page.screenshot({ path: path.join(OUT, 'live-page-running.png'), fullPage: true });
      if (SECONDS > 20) {
        // A longer watch: the page at half time too.
        await page.waitForTimeout((SECONDS / 2) * 1000);
        await page.screenshot({ path: path.join(OUT, 'live-page-half-time.png'), fullPage: true });
      }

      await page.waitForSelector('body[data-state="finished"]', { timeout: SECONDS * 1000 + 60_000 });
      await page.screenshot({ path: path.join(OUT, 'live-page-finished.png'), fullPage: true });
      expect(await exited).toBe(99);
      const summary = JSON.parse(stdout.trim()) as { report_dir: string; run_id: string };
      const report = JSON.parse(await readFile(path.join(summary.report_dir, 'report.json'), 'utf8')) as LoadRunResult;
      const load = report.load;
      expect(await page.locator('#run').textContent()).toBe(summary.run_id);
      expect(Number(await value('requests'))).toBe(load.totals.requests);
      expect(Number(await value('rps'))).toBe(load.rps);
      expect(Number(await value('rateLimitedRate'))).toBe(load.rateLimitedRate);
      expect(Number(await value('errors'))).toBe(load.totals.errors);
      expect(Number(await value('errorRate'))).toBe(load.errorRate);
      const all = load.operations['all']!;
      const classes = { all: all.latency, ...Object.fromEntries(Object.entries(all.latencyByOutcome!).map(([k, v]) => [k, v.latency])) };
      for (const [outcome, l] of Object.entries(classes))
        for (const k of ['count', 'p50', 'p90', 'p95', 'p99', 'p99_9', 'max'] as const)
          expect(Number(await value(`latency.${outcome}.${k}`)), `${outcome} ${k}`).toBe(l[k]);
      for (const g of load.gates) expect(await value(`gate.${g.id}`)).toBe(g.passed ? 'held' : 'breached');
      for (const [status, n] of Object.entries(all.statuses).filter(([s]) => !s.startsWith('2') && s !== '429'))
        expect(Number(await value(`status.${status}`))).toBe(n);
      expect(problems).toEqual([]);
    },
    SECONDS * 1000 + 120_000,
  );
});
