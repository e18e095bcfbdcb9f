/**
 * Runs every command block of the README and of docs/*.md (see `doc-blocks.ts` for how a page
 * marks them), each in a folder of its own that links to the repository's files, and checks what it
 * prints against the output shown after it. What a block runs differs from what a user types only
 * in what a test must change:
 *
 * - `npx svc-harness` is `node dist/src/cli/main.js` (npx only finds that same file, slower);
 * - `npm ci && ` is left out: the dependencies are installed and dist/ is built;
 * - a load's `--duration` is cut to a few seconds;
 * - a mock a block starts itself listens on free ports; a block that talks to a mock on the
 *   default ports (8480, 8481, 8489; `profiles/reference.yaml` too) gets one of its own on free
 *   ports, written into the block and into its copy of the profiles.
 *
 * Blocks run a few at once, the longest first (they share nothing); `SVC_HARNESS_DOCS_OUT=DIR`
 * keeps what each printed, to copy a page's output example from.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import { allPages, missingKeyLines, ROOT, type Runnable } from './doc-blocks.js';

/** Seconds of load a block's `--duration` becomes. */
const LOAD_SECONDS = 1;
/** The longest a block may take: a certification waits out a real `Retry-After` of up to a minute. */
const BLOCK_TIMEOUT_MS = 240_000;
/** What the repository holds that a block's folder does not link to: what runs write, and the profiles, copied instead (nor any dot file: a block may make its own `.github`). */
const NOT_LINKED = new Set(['reports', 'test-output', 'profiles']);

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A folder with the repository's files linked in (the profiles copied, so that ports can be written into them). */
function blockFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-harness-docs-'));
  folders.push(dir);
  for (const entry of readdirSync(ROOT)) if (!NOT_LINKED.has(entry) && !entry.startsWith('.')) symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  cpSync(path.join(ROOT, 'profiles'), path.join(dir, 'profiles'), { recursive: true });
  mkdirSync(path.join(dir, 'reports'));
  return dir;
}

const DEFAULT_PORTS = /127\.0\.0\.1:84(80|81|89)\b|profiles\/reference\.yaml/;

function needsMock(code: string): boolean {
  return DEFAULT_PORTS.test(code) && !/svc-harness mock\b/.test(code);
}

/** The block as the test runs it (see the head of this file). */
function rewrite(code: string, ports?: Map<string, number>): string {
  let out = code
    .replaceAll('npx svc-harness', 'node dist/src/cli/main.js')
    .replace(/\bnpm ci && /g, '')
    .replace(/(main\.js load\b[^\n]*?--duration )\d+/g, `$1${LOAD_SECONDS}`)
    .replace(/(main\.js mock)\b/g, '$1 --port 0 --hotel-port 0 --admin-port 0');
  if (ports) for (const [from, to] of ports) out = out.replaceAll(`127.0.0.1:${from}`, `127.0.0.1:${to}`);
  return out;
}

function portsOf(mock: RunningMock): Map<string, number> {
  const port = (url: string | undefined): number => Number(new URL(url!).port);
  return new Map([
    ['8480', port(mock.baseUrl)],
    ['8481', port(mock.hotelBaseUrl)],
    ['8489', port(mock.adminUrl)],
  ]);
}

function writePorts(dir: string, ports: Map<string, number>): void {
  const file = path.join(dir, 'profiles/reference.yaml');
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of ports) text = text.replaceAll(`127.0.0.1:${from}`, `127.0.0.1:${to}`);
  writeFileSync(file, text);
}

interface Ran {
  code: number | null;
  output: string;
}

/** Runs one block in bash (`-e`: a command that fails ends it), or a server until `ready` says its output is complete. */
function runBlock(script: string, cwd: string, ready?: (output: string) => boolean): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1' };
    for (const name of Object.keys(env)) if (name.startsWith('SVC_')) delete env[name];
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stop('SIGKILL');
      reject(new Error(`timed out after ${BLOCK_TIMEOUT_MS / 1000} s; printed:\n${output}`));
    }, BLOCK_TIMEOUT_MS);
    const take = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready && !stopping && ready(output)) {
        stopping = true;
        stop('SIGINT');
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The blocks of every page, each with those that continue it, in order; a block shown on two pages runs once, checked against both. */
function chains(): Runnable[][] {
  const out: Runnable[][] = [];
  const alone = new Map<string, Runnable>();
  for (const page of allPages().values()) {
    for (const r of page.runnable) {
      const same = alone.get(r.block.code);
      if (r.continued) out[out.length - 1]!.push(r);
      else if (same && String(same.exits) === String(r.exits) && !r.untilStopped) same.outputs.push(...r.outputs);
      else {
        out.push([r]);
        if (!r.untilStopped) alone.set(r.block.code, r);
      }
    }
  }
  return out;
}

const ALL = chains();

/** The blocks that take longest start first: a certification waits out a minute, a self-test runs the suite twice, a suite or a load a few seconds. */
function weight(chain: Runnable[]): number {
  const code = chain.map((r) => r.block.code).join('\n');
  if (/svc-harness certify\b(?!-client)/.test(code)) return 4;
  if (/svc-harness selftest\b(?! --table)/.test(code)) return 3;
  if (/svc-harness (run|load)\b|npm start/.test(code)) return 2;
  return 1;
}

async function runChain(chain: Runnable[]): Promise<void> {
  const dir = blockFolder();
  const mocks: RunningMock[] = [];
  try {
    for (const r of chain) {
      let ports: Map<string, number> | undefined;
      if (needsMock(r.block.code)) {
        const mock = await createMock({ admin: true, port: 0, hotelPort: 0, adminPort: 0 });
        mocks.push(mock);
        ports = portsOf(mock);
        writePorts(dir, ports);
      }
      const script = rewrite(r.block.code, ports);
      const keys = r.outputs.flatMap((o) => o.keys);
      const ready = r.untilStopped ? (out: string) => (keys.length > 0 ? missingKeyLines(keys, out).length === 0 : out.trim().length > 0) : undefined;
      const ran = await runBlock(script, dir, ready);
      const where = `${r.block.file}:${r.block.line}`;
      const keep = process.env['SVC_HARNESS_DOCS_OUT'];
      if (keep) {
        mkdirSync(keep, { recursive: true });
        writeFileSync(path.join(keep, `${where.replaceAll('/', '_')}.txt`), ran.output);
      }
      const shown = `${where} ran:\n${script}\n--- it printed:\n${ran.output.split('\n').slice(-60).join('\n')}`;
      if (!r.untilStopped) expect(r.exits, `exit ${ran.code} of ${shown}`).toContain(ran.code);
      for (const o of r.outputs) expect(missingKeyLines(o.keys, ran.output), `key lines of ${o.block.file}:${o.block.line} missing; ${shown}`).toEqual([]);
    }
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

describe.concurrent('every command block of the README and of docs/', () => {
  it('finds the blocks to run', () => {
    expect(ALL.length).toBeGreaterThan(10);
  });

  // vitest starts them in this order, a few at once (its maxConcurrency): most of their time is a wait.
  for (const chain of [...ALL].sort((a, b) => weight(b) - weight(a))) {
    const name = chain.map((r) => `${r.block.file}:${r.block.line}`).join(' then ');
    it(`runs ${name} and prints what the page shows`, { timeout: BLOCK_TIMEOUT_MS * chain.length }, () => runChain(chain));
  }
});
