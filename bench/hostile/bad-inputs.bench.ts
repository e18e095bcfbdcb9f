/**
 * Benchmark (not a test): time and peak memory of the CLI on each hostile
 * input of issue 20 (scenario files, OpenAPI documents and the servers that
 * serve them, profile values, a target announcing a huge rate limit). Each
 * case runs in a child process under `/usr/bin/time` (peak RSS is its
 * "maximum resident set size") and is stopped after LIMIT_S. Goal: every case
 * ends within 30 s at ≤ 300 MB, with the exit code the case calls for.
 *
 *   npm run build && node --import tsx bench/hostile/bad-inputs.bench.ts [--src]
 *
 * `--src` runs the CLI from the sources through tsx (as the tests do; tsx
 * adds ~100 MB of its own) instead of `dist/`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { stringify } from 'yaml';
import { DEFAULT_FIXTURE } from '../../src/mock/fixture/default-fixture.js';

const LIMIT_S = Number(process.env.BENCH_LIMIT_S ?? 60);
const fromSources = process.argv.includes('--src');
const CLI = fromSources ? ['--import', 'tsx', 'src/cli/main.ts'] : ['dist/src/cli/main.js'];

interface Case {
  area: string;
  name: string;
  args: string[];
  /** Exit code the case calls for. */
  exit: number;
  env?: NodeJS.ProcessEnv;
  /** A node script instead of the CLI (for what the CLI cannot set up alone). */
  script?: string[];
}

interface Figure {
  seconds: number;
  peakMb: number;
  code: number | null;
  line: string;
}

/** Runs one case under /usr/bin/time; stops it after LIMIT_S. */
function measure(c: Case): Promise<Figure> {
  return new Promise((resolve) => {
    const argv = ['-f', 'BENCH %e %M', process.execPath, ...(c.script ?? [...CLI, ...c.args])];
    // Its own process group: a case past the limit is stopped with the CLI under /usr/bin/time, not only the timer.
    const child = spawn('/usr/bin/time', argv, { env: { ...process.env, ...c.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.resume();
    let peakKb = 0;
    // Sampled too: /usr/bin/time prints nothing for a case it did not see end.
    const sampler = setInterval(() => {
      try {
        const kids = execFileSync('pgrep', ['-g', String(child.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
        for (const pid of kids) {
          const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
        }
      } catch {
        // the case ended between two samples
      }
    }, 250);
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), LIMIT_S * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const m = /BENCH ([\d.]+) (\d+)/.exec(err);
      const line =
        err.split('\n').find((l) => l.startsWith('svc-harness:') || l.startsWith('{')) ??
        err.split('\n').find((l) => l.trim() !== '' && !l.startsWith('BENCH') && !l.startsWith('Command')) ??
        '';
      resolve({ seconds: m ? Number(m[1]) : LIMIT_S, peakMb: Math.round((m ? Number(m[2]) : peakKb) / 1024), code: m ? code : null, line: line.slice(0, 160) });
    });
  });
}

/** An HTTP server of hostile documents on port 0. */
async function documentServer(otherOrigin: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const small = JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
  const endless = (res: ServerResponse, gzip: boolean): void => {
    res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    const out = gzip ? createGzip({ level: 9 }) : res;
    if (gzip) (out as ReturnType<typeof createGzip>).pipe(res);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = (): void => {
      while (!res.destroyed && out.write(chunk));
      if (!res.destroyed) out.once('drain', pump);
    };
    res.on('error', () => undefined);
    pump();
  };
  const server = createServer((req, res) => {
    if (req.url === '/elsewhere') res.writeHead(302, { location: `${otherOrigin()}/doc.json` }).end();
    else if (req.url === '/announced-700mb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * 1024 * 1024) });
      res.flushHeaders();
    } else if (req.url === '/endless') endless(res, false);
    else if (req.url === '/gzip-bomb') endless(res, true);
    else res.end(small);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-bad-inputs-'));
  const other = await documentServer(() => '');
  const docs = await documentServer(() => other.origin);
  try {
    const file = async (name: string, text: string): Promise<string> => {
      const p = join(dir, name);
      await writeFile(p, text);
      return p;
    };
    const fifo = (name: string): string => {
      const p = join(dir, name);
      execFileSync('mkfifo', [p]);
      return p;
    };
    const laughs = (head: string[]): string => {
      const lines = [...head, '  a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 10; i++) lines.push(`  a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
      return `${lines.join('\n')}\n`;
    };
    const nested = (depth: number, pad: string): string =>
      depth === 0 ? `${pad}- account:\n` : `${pad}- repeat:\n${pad}    count: 1000\n${pad}    steps:\n${nested(depth - 1, `${pad}      `)}`;
    const zero = join(dir, 'zero.yaml');
    await symlink('/dev/zero', zero);

    // A mock whose first agency announces a write limit of 1 000 000 (the most a fixture allows), run against over its admin clock.
    const [first, ...rest] = structuredClone(DEFAULT_FIXTURE.agencies);
    const fixture = await file(
      'fixture.yaml',
      stringify({ ...structuredClone(DEFAULT_FIXTURE), agencies: [{ ...first!, limits: { read: 600, write: 1_000_000 } }, ...rest] }),
    );
    const mockProc = spawn(
      process.execPath,
      [...CLI, 'mock', '--fixture', fixture, '--admin', '--json', '--port', '0', '--hotel-port', '0', '--admin-port', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const announced = await new Promise<{ base_url: string; hotel_base_url: string; admin_url: string; agencies: Array<Record<string, string>> }>((resolve) => {
      let out = '';
      mockProc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
      });
    });
    const agencies = announced.agencies.slice(0, 2).map((a) => ({
      id: a.agency_id,
      key_id: a.key_id,
      secret: a.secret,
      webhook_secret: a.webhook_secret,
      hotel_api_key: a.hotel_api_key,
      hotel_webhook_secret: a.hotel_webhook_secret,
    }));
    const rlTarget = await file(
      'rl-target.yaml',
      stringify({
        base_url: announced.base_url,
        hotel_base_url: announced.hotel_base_url,
        clock: { control: 'mock-admin', admin_url: announced.admin_url },
        agencies,
      }),
    );

    const scenario = (path: string): string[] => ['scenario', path, '--report-dir', join(dir, 'reports')];
    const cases: Case[] = [
      {
        area: 'scenario files',
        name: 'alias bomb (10^9 nodes)',
        exit: 2,
        args: scenario(await file('laughs.yaml', laughs(['name: laughs', 'steps:', '  - set:']).replace(/^ {2}a/gm, '      a'))),
      },
      {
        area: 'scenario files',
        name: 'repeat 1000×1000×1000',
        exit: 2,
        args: scenario(await file('repeats.yaml', `name: repeats\nsteps:\n${nested(3, '  ')}`)),
      },
      {
        area: 'scenario files',
        name: '50 MB body',
        exit: 2,
        args: scenario(
          await file('body50.yaml', `name: b\nproduct: flights\nsteps:\n  - book:\n      quote: q\n      body: "${'x'.repeat(50 * 1024 * 1024)}"\n`),
        ),
      },
      {
        area: 'scenario files',
        name: '60 KB body × repeat 1000',
        exit: 2,
        args: scenario(
          await file(
            'body-repeat.yaml',
            `name: b\nproduct: flights\nsteps:\n  - repeat:\n      count: 1000\n      steps:\n        - book:\n            quote: q\n            body: "${'y'.repeat(60 * 1024)}"\n`,
          ),
        ),
      },
      {
        area: 'scenario files',
        name: '[ nested 500 000 deep (1 MB)',
        exit: 2,
        args: scenario(await file('deep.yaml', `name: d\nsteps: ${'['.repeat(500_000)}${']'.repeat(500_000)}\n`)),
      },
      { area: 'scenario files', name: 'FIFO', exit: 2, args: scenario(fifo('scenario.fifo')) },
      { area: 'scenario files', name: 'symlink to /dev/zero', exit: 2, args: scenario(zero) },
    ];

    // Against the live mock, so that a case the harness does not refuse runs for real.
    const target = async (name: string, extra: string): Promise<string> =>
      file(
        name,
        `${stringify({ base_url: announced.base_url, hotel_base_url: announced.hotel_base_url, clock: { control: 'mock-admin', admin_url: announced.admin_url }, agencies })}${extra}`,
      );
    const runSc01 = async (name: string, openapi: string): Promise<string[]> => [
      'run',
      '--target',
      await target(name, `openapi: ${JSON.stringify(openapi)}\n`),
      '--only',
      'SC-01',
      '--report-dir',
      join(dir, 'reports'),
    ];
    cases.push(
      { area: 'OpenAPI documents', name: 'FIFO as openapi:', exit: 2, args: await runSc01('t-fifo.yaml', fifo('doc.fifo')) },
      { area: 'OpenAPI documents', name: 'symlink to /dev/zero', exit: 2, args: await runSc01('t-zero.yaml', zero) },
      {
        area: 'OpenAPI documents',
        name: '9 MiB JSON file',
        exit: 2,
        args: await runSc01('t-big.yaml', await file('big.json', `{"openapi":"3.1.0","pad":"${'x'.repeat(9 * 1024 * 1024)}"}`)),
      },
      {
        area: 'OpenAPI documents',
        name: '3 MiB YAML file',
        exit: 2,
        args: await runSc01('t-bigy.yaml', await file('big.yaml', `openapi: 3.1.0\npad: ${'x'.repeat(3 * 1024 * 1024)}\n`)),
      },
      {
        area: 'OpenAPI documents',
        name: 'YAML alias bomb',
        exit: 2,
        args: await runSc01('t-laughs.yaml', await file('laughs-doc.yaml', laughs(['openapi: 3.1.0', 'x:']))),
      },
      { area: 'OpenAPI documents', name: 'URL announcing 700 MB', exit: 2, args: await runSc01('t-700.yaml', `${docs.origin}/announced-700mb`) },
      { area: 'OpenAPI documents', name: 'URL with an endless body', exit: 2, args: await runSc01('t-endless.yaml', `${docs.origin}/endless`) },
      { area: 'OpenAPI documents', name: 'URL gzip bomb', exit: 2, args: await runSc01('t-gzip.yaml', `${docs.origin}/gzip-bomb`) },
      { area: 'OpenAPI documents', name: 'URL redirecting to another port', exit: 2, args: await runSc01('t-redirect.yaml', `${docs.origin}/elsewhere`) },
      {
        area: 'OpenAPI documents',
        name: 'pattern ^(qt_)?([A-Za-z0-9_.~-]+)+!$ on 40 chars (SC-01 judge)',
        exit: 0,
        args: [],
        script: [
          '--import',
          'tsx',
          'test/hostile/_judge-balance.ts',
          JSON.stringify({ type: 'string', pattern: '^(qt_)?([A-Za-z0-9_.~-]+)+!$' }),
          `qt_${'a'.repeat(40)}`,
        ],
      },
    );

    // Before the profile values: a run of the old code that moved the mock's clock years on, stopped, never put it back.
    // RL-01 alone as a WARN: no case passed, so the run is INCONCLUSIVE (exit 1).
    cases.push({
      area: 'runaway targets',
      name: 'account announces write 1 000 000: run --only RL-01',
      exit: 1,
      args: ['run', '--target', rlTarget, '--only', 'RL-01', '--report-dir', join(dir, 'reports')],
    });
    const badProfile = async (name: string, extra: string): Promise<string[]> => [
      'run',
      '--target',
      await target(name, extra),
      '--report-dir',
      join(dir, 'reports'),
    ];
    cases.push(
      {
        area: 'profile values',
        name: 'limits.window_s: 99999999999 (run --only QT-02)',
        exit: 2,
        args: [...(await badProfile('p-window.yaml', 'limits: { window_s: 99999999999 }\n')), '--only', 'QT-02'],
      },
      {
        area: 'profile values',
        name: 'quotes.lifetime_s: 1e15 (run --only QT-02)',
        exit: 2,
        args: [...(await badProfile('p-life.yaml', 'quotes: { lifetime_s: 1e15 }\n')), '--only', 'QT-02'],
      },
      {
        area: 'profile values',
        name: 'webhooks factor 100, 100 attempts (run --only WH-03)',
        exit: 2,
        args: [...(await badProfile('p-wh.yaml', 'webhooks: { factor: 100, max_attempts: 100 }\n')), '--only', 'WH-03'],
      },
      {
        area: 'profile values',
        name: 'profile file is a FIFO',
        exit: 2,
        args: ['run', '--target', fifo('profile.fifo'), '--report-dir', join(dir, 'reports')],
      },
      {
        area: 'profile values',
        name: 'profile [ nested 500 000 deep',
        exit: 2,
        args: [
          'run',
          '--target',
          await file('p-deep.yaml', `search_body: ${'['.repeat(500_000)}${']'.repeat(500_000)}\n`),
          '--report-dir',
          join(dir, 'reports'),
        ],
      },
    );

    console.log(`| area | case | exit (wanted) | time s | peak MB | first line |`);
    console.log(`| --- | --- | --- | --- | --- | --- |`);
    for (const c of cases) {
      const f = await measure(c);
      const held = f.code === c.exit && f.seconds <= 30 && f.peakMb <= 300;
      console.log(
        `| ${c.area} | ${c.name} | ${f.code ?? `stopped at ${LIMIT_S} s`} (${c.exit})${held ? '' : ' ✗'} | ${f.seconds.toFixed(2)} | ${f.code === null ? '≥ ' : ''}${f.peakMb} | ${f.line.replace(/\|/g, '\\|').replaceAll(dir, '…')} |`,
      );
    }
    mockProc.kill('SIGTERM');
  } finally {
    await docs.close();
    await other.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
