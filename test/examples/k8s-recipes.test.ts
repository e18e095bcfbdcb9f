import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkCommandLine } from '../../src/cli/parser.js';
import { assertGateMetrics } from '../../src/load/gate-metrics.js';
import { parseThresholds } from '../../src/load/gates.js';
import { createMock } from '../../src/mock/create-mock.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { runCli } from '../helpers/run-cli.js';
import { commandsInScript } from './_command-lines.js';

interface Container {
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string }>;
}
interface Job {
  kind: string;
  metadata: { name: string };
  spec: { completionMode?: string; completions?: number; parallelism?: number; template: { spec: { containers: Container[] } } };
}

const docs = (file: string): Job[] => parseAllDocuments(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')).map((d) => d.toJS() as Job);
const script = (c: Container): string => [...(c.command ?? []), ...(c.args ?? [])].at(-1)!;
const option = (args: string[], name: string): string[] => args.flatMap((a, i) => (args[i - 1] === name ? [a] : []));

describe('examples/k8s', () => {
  it('the Indexed Job, rendered for each pod, runs shard i+1/N of an N-shard load the CLI accepts; the merge job merges them all', async () => {
    const job = docs('examples/k8s/load-indexed-job.yaml').find((d) => d.kind === 'Job')!;
    expect(job.spec.completionMode).toBe('Indexed');
    const n = job.spec.completions!;
    expect(job.spec.parallelism).toBe(n);
    const container = job.spec.template.spec.containers[0]!;
    expect(container.env?.find((e) => e.name === 'SHARDS')?.value).toBe(String(n));
    const shards: string[] = [];
    const reports: string[] = [];
    for (let index = 0; index < n; index++) {
      const rendered = script(container)
        .replaceAll('$((JOB_COMPLETION_INDEX+1))', String(index + 1))
        .replaceAll('$JOB_COMPLETION_INDEX', String(index))
        .replaceAll('$SHARDS', String(n));
      const [args, ...more] = commandsInScript(rendered);
      expect(more).toEqual([]);
      expect(args![0]).toBe('load');
      await checkCommandLine(args!);
      shards.push(...option(args!, '--shard'));
      reports.push(`${option(args!, '--report-dir')[0]}/latest/report.json`);
    }
    expect(shards).toEqual(Array.from({ length: n }, (_, i) => `${i + 1}/${n}`));

    const merge = docs('examples/k8s/merge-job.yaml').find((d) => d.kind === 'Job')!;
    const mergeScript = script(merge.spec.template.spec.containers[0]!);
    // The shell expands the glob to the shards' reports.
    const glob = /\S*\*\S*/.exec(mergeScript)![0];
    expect(reports.every((r) => new RegExp(`^${glob.replace(/[.]/g, '\\.').replace('*', '[^/]+')}$`).test(r))).toBe(true);
    const [args] = commandsInScript(mergeScript.replace(glob, reports.join(' ')));
    expect(args!.slice(0, 2)).toEqual(['report', 'merge']);
    await checkCommandLine(args!);
    expect(() => assertGateMetrics(parseThresholds(option(args!, '--threshold')))).not.toThrow();
  });

  it('N shard processes against one service merge exactly: counts add up, every agency once, every shard once', async () => {
    const n = 3;
    const mock = await createMock({ port: 0, hotelPort: 0, adminPort: 0, admin: false, fixture: { agencies: generateAgencies(6) } });
    const dir = await mkdtemp(join(tmpdir(), 'k8s-shards-'));
    try {
      const agencies = mock.agencies.map((a) => `  - {id: ${a.agency_id}, key_id: ${a.key_id}, secret: ${JSON.stringify(a.secret)}}`).join('\n');
      const profile = join(dir, 'profile.yaml');
      await writeFile(profile, `name: shared\nbase_url: ${mock.baseUrl}\nhotel_base_url: null\nclock:\n  control: none\nagencies:\n${agencies}\n`);
      const runs = await Promise.all(
        Array.from({ length: n }, (_, i) => runCli(['load', '--target', profile, '--search', 'flights', '--shard', `${i + 1}/${n}`, '--duration', '2', '--connections', '2', '--report-dir', join(dir, `shard-${i + 1}`), '--json'], { CI: '1' })),
      );
      const parts = runs.map((r) => {
        expect(r.stderr).not.toMatch(/internal error/);
        return JSON.parse(r.stdout) as { report_dir: string; totals: Record<string, number> };
      });
      const merged = await runCli(['report', 'merge', ...parts.map((p) => join(p.report_dir, 'report.json')), '-o', join(dir, 'merged'), '--json'], { CI: '1' });
      expect(merged.stderr).not.toMatch(/internal error/);
      const m = JSON.parse(merged.stdout) as { shards: Array<{ index: number; count: number }>; totals: Record<string, number>; report_dir: string };
      for (const key of ['requests', 'ok', 'rate_limited', 'errors', 'expected']) expect(m.totals[key], key).toBe(parts.reduce((s, p) => s + p.totals[key]!, 0));
      expect(m.totals.requests).toBeGreaterThan(0);
      expect(m.shards).toEqual([1, 2, 3].map((index) => ({ index, count: n })));
      const report = JSON.parse(readFileSync(join(m.report_dir, 'report.json'), 'utf8')) as { load: { agencies: string[]; operations: { all: { count: number } } } };
      expect(report.load.agencies.sort()).toEqual(mock.agencies.map((a) => a.agency_id).sort());
      expect(report.load.operations.all.count).toBe(m.totals.requests);

      // A shard missing from the set is refused.
      const gap = await runCli(['report', 'merge', join(parts[0]!.report_dir, 'report.json'), join(parts[2]!.report_dir, 'report.json'), '-o', join(dir, 'gap')], { CI: '1' });
      expect(gap.code).toBe(2);
      expect(gap.stderr).toMatch(/shard 2\/3 is missing/);
    } finally {
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
