import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkCommandLine } from '../../src/cli/parser.js';
import { commandsInYaml } from './_command-lines.js';

const read = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('examples/ci', () => {
  it.each(['examples/ci/github-actions.yml', 'examples/ci/gitlab-ci.yml'])('%s: every svc-harness command line is one the CLI accepts', async (file) => {
    const commands = commandsInYaml(read(file));
    expect(commands.map((c) => c[0])).toEqual(['mock', 'load', 'run']);
    for (const args of commands) await expect(checkCommandLine(args), args.join(' ')).resolves.toBeUndefined();
    // The load gates, whose metrics the parser alone does not know, name metrics that exist.
    const { assertGateMetrics } = await import('../../src/load/gate/gate-metrics.js');
    const { parseThresholds } = await import('../../src/load/gate/gates.js');
    const load = commands.find((c) => c[0] === 'load')!;
    const gates = load.flatMap((a, i) => (load[i - 1] === '--threshold' ? [a] : []));
    expect(gates.length).toBeGreaterThan(0);
    expect(() => assertGateMetrics(parseThresholds(gates))).not.toThrow();
    // The latency of the service is that of its 2xx answers (a load past the limits gets mostly 429s), and errors are gated.
    expect(gates.some((g) => /^search\.2xx\.p9\d/.test(g))).toBe(true);
    expect(gates.some((g) => g.startsWith('errors.rate<'))).toBe(true);
    expect(gates.filter((g) => /^(search|latency)\.(p\d|mean|max)/.test(g))).toEqual([]);
    // The harness is called so that a cancelled job's signal reaches it: no npx, no sh -c in between.
    expect(read(file)).not.toMatch(/npx |sh -c/);
  });

  it('the check refuses what the CLI refuses', async () => {
    await expect(checkCommandLine(['load', '--thresold', 'rps>=1'])).rejects.toThrow(/thresold/);
    await expect(checkCommandLine(['load', '--shard', '4/3'])).rejects.toThrow(/--shard must be i\/N/);
    await expect(checkCommandLine(['nope'])).rejects.toThrow();
  });

  it('GitHub: JUnit published, report.html uploaded, the load (exit 99 on a broken gate) a step of its own', () => {
    const wf = parse(read('examples/ci/github-actions.yml')) as {
      jobs: Record<string, { steps: Array<{ uses?: string; run?: string; with?: Record<string, string> }> }>;
    };
    const steps = Object.values(wf.jobs)[0]!.steps;
    expect(steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))?.with?.report_paths).toMatch(/junit\.xml$/);
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.with?.path).toContain('report.html');
    expect(steps.filter((s) => /(svc-harness|main\.js) load .*--threshold/.test(s.run ?? ''))).toHaveLength(1);
  });

  it('GitLab: JUnit report and the reports kept as artifacts, also when the job fails', () => {
    const job = Object.values(
      parse(read('examples/ci/gitlab-ci.yml')) as Record<string, { artifacts: { when: string; paths: string[]; reports: { junit: string } } }>,
    )[0]!;
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toMatch(/junit\.xml$/);
    expect(job.artifacts.paths).toContain('reports/');
  });

  it("GitLab: the suite still runs after a gate fails, as on GitHub, and the job still fails with the load's status", () => {
    const job = Object.values(parse(read('examples/ci/gitlab-ci.yml')) as Record<string, { script: string[] }>)[0]!;
    const from = job.script.findIndex((l) => / load /.test(l));
    // GitLab runs the lines in one shell that stops at the first failing one (set -e); node stands in for the harness: its load breaks a gate.
    const script = [
      'set -eo pipefail',
      'node() { case "$2" in load) echo load; return 99;; run) echo suite; return 0;; esac; }',
      ...job.script.slice(from),
    ].join('\n');
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual(['load', 'suite']);
    expect(r.status).toBe(99);
  });

  it('mock-env.mjs turns `mock --json` into every variable the reference profile reads', () => {
    const line = JSON.stringify({
      agencies: ['alpha', 'beta', 'gamma', 'delta'].map((n) => ({
        agency_id: `agency-${n}`,
        secret: `s-${n}`,
        webhook_secret: `w-${n}`,
        hotel_api_key: `h-${n}`,
        hotel_webhook_secret: `hw-${n}`,
      })),
    });
    const dir = mkdtempSync(join(tmpdir(), 'mock-env-'));
    writeFileSync(join(dir, 'mock.json'), `${line}\n`);
    const out = execFileSync(process.execPath, ['examples/ci/mock-env.mjs', join(dir, 'mock.json')], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    const names = out
      .trim()
      .split('\n')
      .map((l) => l.split('=')[0]);
    const wanted = [...read('profiles/reference.yaml').matchAll(/_env: (SVC_[A-Z_]+)/g)].map((m) => m[1]);
    expect(names.sort()).toEqual(wanted.sort());
    expect(out).toContain('SVC_AGENCY_ALPHA_SECRET=s-alpha\n');
  });
});
