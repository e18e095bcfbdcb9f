import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where a Chromium may be: `CHROMIUM_PATH` first, then the usual places of Debian's and Ubuntu's packages, then `chromium` on the PATH. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** The Chromium the browser tests drive, or undefined when the machine has none (the tests are then skipped). */
export function findChromium(): string | undefined {
  const chosen = process.env['CHROMIUM_PATH'];
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  const onPath = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((d) => path.join(d, 'chromium'));
  return [...CANDIDATES, ...onPath].find((p) => existsSync(p));
}

/** The one line `npm test` prints when the browser tests cannot run. */
export const SKIPPED_LINE =
  "browser tests skipped: no Chromium found (install Debian's chromium with `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary)";

/**
 * Headless Chromium, with its background services off: a closed network
 * refuses their connections, and a page under test must be the only thing
 * asking for anything. playwright-core gives it a fresh, empty profile.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
