import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkCommandLine } from '../../src/cli/parser.js';
import { assertGateMetrics } from '../../src/load/gate/gate-metrics.js';
import { parseThresholds } from '../../src/load/gate/gates.js';
import { createMock } from '../../src/mock/create-mock.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { cliArgs } from '../helpers/cli-entry.js';
import { runCli } from '../helpers/run-cli.js';
import { commandsInScript } from './_command-lines.js';
// @ts-expect-error a plain script of the recipe, without types
import { extractReports } from '../../examples/k8s/extract-reports.mjs';
// @ts-expect-error a plain script of the recipe, without types
import { reportLines, shardArgs } from '../../examples/k8s/shard.mjs';

interface Container {
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string }>;
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    template: { spec: { containers: Container[]; volumes?: Array<Record<string, unknown>> } };
  };
}

const RECIPE = 'examples/k8s/load-indexed-job.yaml';
const read = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const docs = (file: string): Manifest[] => parseAllDocuments(read(file)).map((d) => d.toJS() as Manifest);
const option = (args: string[], name: string): string[] => args.flatMap((a, i) => (args[i - 1] === name ? [a] : []));
/** The shell lines of the recipe's header: what a person types, in order. */
const headerLines = (): string[] =>
  [...read(RECIPE).matchAll(/^#\s{3}(.+)$/gm)]
    .map((m) => m[1]!.trim())
    .join('\n')
    .replace(/\\\n#?\s*/g, ' ')
    .split('\n');
const typedShardArgs = shardArgs as (argv: string[], env: NodeJS.ProcessEnv) => { shard: string; reportDir: string; args: string[] };
const typedExtract = extractReports as (log: string) => Map<string, string>;
const typedLines = reportLines as (shard: string, json: string) => string[];

/** The models of the API objects the recipe holds: each validates offline against its Kubernetes OpenAPI schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = { 'v1/ConfigMap': ConfigMap, 'batch/v1/Job': Job };

describe('examples/k8s', () => {
  it('every manifest is valid against the Kubernetes API schemas, and none needs a ReadWriteMany volume', () => {
    const all = docs(RECIPE);
    expect(all.map((d) => `${d.apiVersion}/${d.kind}`).sort()).toEqual(['batch/v1/Job', 'v1/ConfigMap']);
    for (const doc of all) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`]!;
      expect(() => new Model(doc as never).validate(), `${doc.kind} ${doc.metadata.name}`).not.toThrow();
    }
    expect(read(RECIPE)).not.toMatch(/ReadWriteMany|PersistentVolumeClaim/);
    // The check bites: a field of the wrong type is refused.
    const job = all.find((d) => d.kind === 'Job')!;
    const broken = structuredClone(job);
    (broken.spec.template.spec.containers[0] as { command: unknown }).command = 'node shard.mjs';
    expect(() => new Job(broken as never).validate()).toThrow(/command must be array/);
  });

  it('the Indexed Job runs shard i+1/N of an N-shard load the CLI accepts, in exec form, over at least N agencies', async () => {
    const all = docs(RECIPE);
    const job = all.find((d) => d.kind === 'Job')!;
    expect(job.spec.completionMode).toBe('Indexed');
    const n = job.spec.completions!;
    expect(job.spec.parallelism).toBe(n);
    const container = job.spec.template.spec.containers[0]!;
    const env = Object.fromEntries((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
    expect(env.SHARDS).toBe(String(n));
    // Exec form: node is the pod's first process, no shell or npx in between to swallow SIGTERM.
    expect(container.command).toEqual(['node', '/harness/examples/k8s/shard.mjs']);
    const shards: string[] = [];
    for (let index = 0; index < n; index++) {
      const { args, shard } = typedShardArgs(container.args ?? [], { ...env, JOB_COMPLETION_INDEX: String(index) });
      expect(args[0]).toBe('load');
      await checkCommandLine(args);
      expect(option(args, '--report-dir')).toEqual(['/reports']);
      shards.push(shard);
    }
    expect(shards).toEqual(Array.from({ length: n }, (_, i) => `${i + 1}/${n}`));
    // The reports folder is the pod's own (an emptyDir).
    const reportsVolume = job.spec.template.spec.volumes?.find((v) => v.name === 'reports');
    expect(reportsVolume).toHaveProperty('emptyDir');
    // A shard with no agency of its own would have nothing to send: the profile lists at least N.
    const profile = parse(all.find((d) => d.kind === 'ConfigMap')!.data!['profile.yaml']!) as { agencies: unknown[] };
    expect(profile.agencies.length).toBeGreaterThanOrEqual(n);
    expect(() => typedShardArgs([], { SHARDS: '4', JOB_COMPLETION_INDEX: '4' })).toThrow(/JOB_COMPLETION_INDEX/);
  });

  it('the steps in its header: build and push, the secret, a wait that ends on failure too, the logs out, a merge the CLI accepts', async () => {
    const lines = headerLines();
    const at = (re: RegExp): number => lines.findIndex((l) => re.test(l));
    const order = [
      /^docker build -f examples\/k8s\/Dockerfile /,
      /^docker push /,
      /^kubectl create secret generic svc-harness-secrets /,
      /^kubectl apply -f examples\/k8s\/load-indexed-job\.yaml$/,
      /Failed/,
      /^kubectl logs -l job-name=svc-harness-load --tail=-1 /,
      /^node examples\/k8s\/extract-reports\.mjs /,
      /report merge/,
    ];
    const found = order.map(at);
    expect(
      found.every((i) => i >= 0),
      JSON.stringify(found),
    ).toBe(true);
    expect([...found].sort((a, b) => a - b)).toEqual(found);
    // The wait polls for either condition, Complete or Failed.
    expect(lines[at(/Failed/)]).toMatch(/until kubectl get job\/svc-harness-load .*Complete\|Failed/);
    // Every secret the Job reads is one the secret line creates.
    const created = [...lines[at(/kubectl create secret/)]!.matchAll(/--from-literal=(\w+)=/g)].map((m) => m[1]);
    const job = docs(RECIPE).find((d) => d.kind === 'Job')!;
    const wanted = [...JSON.stringify(job).matchAll(/"secretKeyRef":\{"name":"svc-harness-secrets","key":"(\w+)"\}/g)].map((m) => m[1]);
    expect(created.sort()).toEqual(wanted.sort());
    const [merge, ...more] = commandsInScript(
      lines[at(/report merge/)]!.replace('reports/k8s/shard-*/report.json', 'reports/k8s/shard-1/report.json reports/k8s/shard-2/report.json'),
    );
    expect(more).toEqual([]);
    expect(merge!.slice(0, 2)).toEqual(['report', 'merge']);
    await checkCommandLine(merge!);
    const gates = option(merge!, '--threshold');
    expect(() => assertGateMetrics(parseThresholds(gates))).not.toThrow();
    expect(gates.some((g) => g.startsWith('search.2xx.'))).toBe(true);
  });

  it('the image: the harness as an exec-form entrypoint, and a .dockerignore that keeps node_modules, dist and reports out', () => {
    const dockerfile = read('examples/k8s/Dockerfile');
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/harness\/dist\/src\/cli\/main\.js"\]$/m);
    expect(dockerfile).not.toMatch(/^(CMD|ENTRYPOINT) [^[]/m);
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const path of ['node_modules', 'dist', 'reports']) expect(ignored).toContain(path);
  });

  it('a report printed to a log between the markers comes back whole, among other lines and with kubectl --prefix', () => {
    const big = JSON.stringify({ load: { histogram: 'x'.repeat(50_000) }, verdict: 'PASS' });
    const log = [
      'progress line',
      ...typedLines('1/2', big).map((l) => `[pod/svc-harness-load-0-abc/load] ${l}`),
      '[pod/svc-harness-load-1-def/load] load: 5/120 s',
      ...typedLines('2/2', '{"verdict":"FAIL"}').map((l) => `[pod/svc-harness-load-1-def/load] ${l}`),
    ].join('\n');
    const found = typedExtract(log);
    expect([...found.keys()]).toEqual(['1/2', '2/2']);
    expect(found.get('1/2')).toBe(big);
    expect(found.get('2/2')).toBe('{"verdict":"FAIL"}');
    // Every line fits a log line of any runtime.
    expect(
      Math.max(
        ...typedLines('1/2', big)
          .slice(1, -1)
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(76);
    expect(() => typedExtract(typedLines('1/1', big).slice(0, -3).join('\n'))).toThrow(/cut off/);
  });

  it("a shard's pod stopped with SIGTERM: the harness gets it, writes the report of what ran and the log carries it out", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'k8s-shard-'));
    try {
      const child = spawn(process.execPath, ['examples/k8s/shard.mjs', '--agencies', '1', '--search', 'flights', '--duration', '60'], {
        env: {
          ...process.env,
          CI: '1',
          JOB_COMPLETION_INDEX: '0',
          SHARDS: '1',
          REPORT_DIR: dir,
          SVC_HARNESS_COMMAND: JSON.stringify([process.execPath, ...cliArgs()]),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // The first progress line: the load runs, and the harness listens for signals.
      await new Promise<void>((resolve) => {
        child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), /load: \d+/.test(stderr) && resolve()));
        child.on('close', () => resolve());
      });
      child.kill('SIGTERM');
      expect(await closed, stderr).toBe(143);
      const reports = typedExtract(stdout);
      expect([...reports.keys()]).toEqual(['1/1']);
      const report = JSON.parse(reports.get('1/1')!) as { verdict: string };
      expect(report.verdict).toBe('INTERRUPTED');
      // The same report the harness wrote in the pod.
      expect(reports.get('1/1')).toBe(await readFile(join(dir, 'latest', 'report.json'), 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('N shard processes against one service merge exactly: counts add up, every agency once, every shard once', async () => {
    const n = 3;
    const mock = await createMock({ port: 0, hotelPort: 0, adminPort: 0, admin: false, fixture: { agencies: generateAgencies(6) } });
    const dir = await mkdtemp(join(tmpdir(), 'k8s-shards-'));
    try {
      const agencies = mock.agencies.map((a) => `  - {id: ${a.agency_id}, key_id: ${a.key_id}, secret: ${JSON.stringify(a.secret)}}`).join('\n');
      const profile = join(dir, 'profile.yaml');
      await writeFile(profile, `name: shared\nbase_url: ${mock.baseUrl}\nhotel_base_url: null\nclock:\n  control: none\nagencies:\n${agencies}\n`);
      const runs = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          runCli(
            [
              'load',
              '--target',
              profile,
              '--search',
              'flights',
              '--shard',
              `${i + 1}/${n}`,
              '--duration',
              '2',
              // Fewer reads than the shard's agencies may make in a minute: a full read bucket would have the shard wait out its
              // Retry-After (up to a minute) before it reads the wallets it reconciles.
              '--requests',
              '300',
              '--connections',
              '2',
              '--report-dir',
              join(dir, `shard-${i + 1}`),
              '--json',
            ],
            { CI: '1' },
          ),
        ),
      );
      const parts = runs.map((r) => {
        expect(r.stderr).not.toMatch(/internal error/);
        return JSON.parse(r.stdout) as { report_dir: string; totals: Record<string, number> };
      });
      const merged = await runCli(['report', 'merge', ...parts.map((p) => join(p.report_dir, 'report.json')), '-o', join(dir, 'merged'), '--json'], {
        CI: '1',
      });
      expect(merged.stderr).not.toMatch(/internal error/);
      const m = JSON.parse(merged.stdout) as { shards: Array<{ index: number; count: number }>; totals: Record<string, number>; report_dir: string };
      for (const key of ['requests', 'ok', 'rate_limited', 'errors', 'expected'])
        expect(m.totals[key], key).toBe(parts.reduce((s, p) => s + p.totals[key]!, 0));
      expect(m.totals.requests).toBeGreaterThan(0);
      expect(m.shards).toEqual([1, 2, 3].map((index) => ({ index, count: n })));
      const report = JSON.parse(readFileSync(join(m.report_dir, 'report.json'), 'utf8')) as {
        load: { agencies: string[]; operations: { all: { count: number } } };
      };
      expect(report.load.agencies.sort()).toEqual(mock.agencies.map((a) => a.agency_id).sort());
      expect(report.load.operations.all.count).toBe(m.totals.requests);

      // A shard missing from the set is refused.
      const gap = await runCli(
        ['report', 'merge', join(parts[0]!.report_dir, 'report.json'), join(parts[2]!.report_dir, 'report.json'), '-o', join(dir, 'gap')],
        { CI: '1' },
      );
      expect(gap.code).toBe(2);
      expect(gap.stderr).toMatch(/shard 2\/3 is missing/);
    } finally {
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
