/**
 * The CI gates against a service in another process, healthy and broken
 * (issue 32): the README's CI-recipe load five times back to back, each
 * compared with the one before (`report compare`); `--baseline` three times
 * on the unchanged service; two scenario shards merged under
 * `--threshold 'errors.rate<0.00001'`; then the same commands against the
 * service made 30% slower and against one that refuses early (a limit lower
 * than it advertises), which must fail.
 *
 *   node --import tsx bench/gate-demos.ts [--target standin|mock|both] [--duration 20]
 *       [--latency-ms 20] [--only healthy|broken] [--out bench-output/gate-demos]
 *
 * Targets: `standin` is bench/standin (an independent implementation, real
 * time, no clock control); `mock` is `node dist/src/cli/main.js mock --admin
 * --json` with profiles/reference.yaml (its clock moved through the admin
 * API, as in the CI recipe). Both answer every request `--latency-ms` late
 * (a service doing real work); "slower" adds 30% to it. Uses the built CLI
 * (dist/): build first. Prints each command's exit code, duration and key
 * lines, and writes them to `<out>/<target>/results.json`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { standinEnv } from './standin/_internal/standin-env.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '20' },
    'latency-ms': { type: 'string', default: '20' },
    only: { type: 'string', default: 'all' },
    out: { type: 'string', default: 'bench-output/gate-demos' },
  },
});
const DURATION = values.duration!;
const LATENCY = Number(values['latency-ms']);
const SLOW_LATENCY = Math.round(LATENCY * 1.3);
const CLI = resolve('dist/src/cli/main.js');
const CI_GATES = ['--threshold', 'search.2xx.p95<250ms', '--threshold', 'errors.rate<0.01'];

type Variant = 'healthy' | 'slower' | 'refuses-early';
interface Started {
  child: ChildProcess;
  profile: string;
  env: Record<string, string>;
}
interface Outcome {
  demo: string;
  command: string;
  exit: number | null;
  seconds: number;
  expected: string;
  load1: string;
  keyLines: string[];
}

const KEY =
  /^(✓|✗|REGRESSED|unchanged|no regression|verdicts:|load: \d| {2}[✓✗] |FAIL|PASS|compare |gates:| {2}(latency|all|2xx|429|search|book)|newly failing|metric regressions?|regress)/;

async function firstLine(child: ChildProcess, what: string): Promise<string> {
  const rl = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${what} exited ${String(code)} before it listened`);
  });
  const line = once(rl, 'line').then(([l]) => l as string);
  return Promise.race([line, exited]);
}

async function startTarget(kind: 'standin' | 'mock', variant: Variant, dir: string): Promise<Started> {
  const latency = String(variant === 'slower' ? SLOW_LATENCY : LATENCY);
  if (kind === 'standin') {
    const args = ['--import', 'tsx', 'bench/standin/main.ts', '--port', '0', '--latency-ms', latency];
    if (variant === 'refuses-early') args.push('--admit-pct', '95');
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = JSON.parse(await firstLine(child, 'the stand-in')) as { base_url: string };
    const profile = join(dir, 'standin-profile.yaml');
    writeFileSync(profile, readFileSync('bench/standin/profile.yaml', 'utf8').replace(/^base_url: .*$/m, `base_url: ${line.base_url}`));
    return { child, profile, env: standinEnv(JSON.parse(readFileSync('bench/standin/agencies.json', 'utf8'))) };
  }
  const args = [CLI, 'mock', '--admin', '--json', '--port', '0', '--hotel-port', '0', '--admin-port', '0', '--latency-ms', latency];
  if (variant === 'refuses-early') args.push('--defects', 'throttle-at-95');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = JSON.parse(await firstLine(child, 'the mock')) as {
    base_url: string;
    hotel_base_url: string;
    admin_url: string;
    agencies: { agency_id: string; [k: string]: string }[];
  };
  const profile = join(dir, 'mock-profile.yaml');
  writeFileSync(
    profile,
    readFileSync('profiles/reference.yaml', 'utf8')
      .replace(/^base_url: .*$/m, `base_url: ${line.base_url}`)
      .replace(/^hotel_base_url: .*$/m, `hotel_base_url: ${line.hotel_base_url}`)
      .replace(/^ {2}admin_url: .*$/m, `  admin_url: ${line.admin_url}`),
  );
  // As examples/ci/mock-env.mjs does.
  const env: Record<string, string> = {};
  const fields = { secret: 'SECRET', webhook_secret: 'WEBHOOK_SECRET', hotel_api_key: 'HOTEL_API_KEY', hotel_webhook_secret: 'HOTEL_WEBHOOK_SECRET' };
  for (const a of line.agencies) {
    const name = a.agency_id
      .replace(/^agency-/, '')
      .replace(/[^A-Za-z0-9]/g, '_')
      .toUpperCase();
    for (const [key, suffix] of Object.entries(fields)) if (a[key]) env[`SVC_AGENCY_${name}_${suffix}`] = a[key];
  }
  return { child, profile, env };
}

async function stopTarget(t: Started): Promise<void> {
  if (t.child.exitCode !== null) return;
  t.child.kill('SIGTERM');
  await once(t.child, 'exit');
}

async function cli(t: Started, dir: string, demo: string, expected: string, args: string[]): Promise<Outcome> {
  const log = join(dir, `${demo.replace(/[^A-Za-z0-9.-]+/g, '_')}.log`);
  const started = Date.now();
  const load1 = loadavg()[0]!.toFixed(2);
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...t.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const file = createWriteStream(log);
  let stdout = '';
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
    file.write(c);
  });
  child.stderr!.pipe(file, { end: false });
  const [code] = (await once(child, 'exit')) as [number | null];
  file.end();
  const seconds = (Date.now() - started) / 1000;
  const keyLines = stdout.split('\n').filter((l) => KEY.test(l));
  const outcome: Outcome = { demo, command: `svc-harness ${args.join(' ')}`, exit: code, seconds, expected, load1, keyLines };
  const mark = expected.split('|').includes(String(code)) ? 'as expected' : `EXPECTED ${expected}`;
  process.stdout.write(`\n## ${demo}: exit ${String(code)} (${mark}) in ${seconds.toFixed(1)} s, load average ${load1}\n`);
  for (const l of keyLines.slice(0, 24)) process.stdout.write(`   ${l}\n`);
  return outcome;
}

const report = (dir: string): string => join(dir, 'latest', 'report.json');
const ciLoad = (t: Started, dir: string, extra: string[] = []): string[] => [
  'load',
  '--target',
  t.profile,
  '--search',
  'flights',
  '--duration',
  DURATION,
  ...CI_GATES,
  '--report-dir',
  dir,
  ...extra,
];

async function demos(kind: 'standin' | 'mock', root: string): Promise<Outcome[]> {
  const dir = join(root, kind);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const outcomes: Outcome[] = [];
  const ci = (i: number): string => join(dir, `ci-${i}`);
  process.stdout.write(`\n# ${kind}: healthy (${LATENCY} ms per answer), slower (${SLOW_LATENCY} ms), refusing early (95% of the advertised limit)\n`);

  let t = await startTarget(kind, 'healthy', dir);
  try {
    if (values.only !== 'broken') {
      for (let i = 1; i <= 5; i++) {
        outcomes.push(await cli(t, dir, `healthy ci-load ${i}`, '0', ciLoad(t, ci(i))));
        if (i > 1)
          outcomes.push(
            await cli(t, dir, `healthy compare ${i - 1}→${i}`, '0', ['report', 'compare', report(ci(i - 1)), report(ci(i)), '-o', join(dir, `compare-${i}`)]),
          );
      }
      for (let i = 1; i <= 3; i++)
        outcomes.push(await cli(t, dir, `healthy baseline ${i}`, '0', ciLoad(t, join(dir, `baseline-${i}`), ['--baseline', report(ci(5))])));
    } else outcomes.push(await cli(t, dir, 'healthy ci-load 5', '0', ciLoad(t, ci(5))));
    const shards = [1, 2].map((i) =>
      cli(t, dir, `healthy shard ${i}/2`, '0', [
        'load',
        '--target',
        t.profile,
        '--duration',
        DURATION,
        '--shard',
        `${i}/2`,
        '--report-dir',
        join(dir, `shard-${i}`),
      ]),
    );
    outcomes.push(...(await Promise.all(shards)));
    outcomes.push(
      await cli(t, dir, 'healthy merge', '0', [
        'report',
        'merge',
        report(join(dir, 'shard-1')),
        report(join(dir, 'shard-2')),
        '--threshold',
        'errors.rate<0.00001',
        '-o',
        join(dir, 'merged'),
      ]),
    );
  } finally {
    await stopTarget(t);
  }
  if (values.only === 'healthy') return outcomes;

  for (const variant of ['slower', 'refuses-early'] as const) {
    t = await startTarget(kind, variant, dir);
    try {
      const d = (name: string): string => join(dir, `${variant}-${name}`);
      outcomes.push(await cli(t, dir, `${variant} ci-load`, variant === 'slower' ? '0' : '1|99', ciLoad(t, d('ci'))));
      outcomes.push(await cli(t, dir, `${variant} compare healthy→${variant}`, '1', ['report', 'compare', report(ci(5)), report(d('ci')), '-o', d('compare')]));
      outcomes.push(await cli(t, dir, `${variant} baseline`, '1|99', ciLoad(t, d('baseline'), ['--baseline', report(ci(5))])));
      const shards = [1, 2].map((i) =>
        cli(t, dir, `${variant} shard ${i}/2`, 'any', [
          'load',
          '--target',
          t.profile,
          '--duration',
          DURATION,
          '--shard',
          `${i}/2`,
          '--report-dir',
          d(`shard-${i}`),
        ]),
      );
      outcomes.push(...(await Promise.all(shards)));
      outcomes.push(
        await cli(t, dir, `${variant} merge`, variant === 'slower' ? '0' : '1|99', [
          'report',
          'merge',
          report(d('shard-1')),
          report(d('shard-2')),
          '--threshold',
          'errors.rate<0.00001',
          '-o',
          d('merged'),
        ]),
      );
    } finally {
      await stopTarget(t);
    }
  }
  return outcomes;
}

const root = resolve(values.out!);
const targets = values.target === 'both' ? (['standin', 'mock'] as const) : [values.target as 'standin' | 'mock'];
for (const kind of targets) {
  const outcomes = await demos(kind, root);
  writeFileSync(join(root, kind, 'results.json'), `${JSON.stringify(outcomes, null, 2)}\n`);
  process.stdout.write(`\n# ${kind}: summary\n`);
  for (const o of outcomes) {
    const ok = o.expected === 'any' || o.expected.split('|').includes(String(o.exit));
    process.stdout.write(
      `${ok ? 'ok  ' : 'BAD '} ${o.demo.padEnd(36)} exit ${String(o.exit).padEnd(3)} (expected ${o.expected}) ${o.seconds.toFixed(1)} s, load ${o.load1}\n`,
    );
  }
}
