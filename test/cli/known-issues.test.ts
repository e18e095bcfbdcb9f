import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { GATE_BREAKING_LOAD } from '../helpers/gate-breaking-load.js';

interface RunJson {
  verdict: string;
  summary: Record<string, number>;
  report_dir: string;
  cases: { id: string; verdict: string; message: string; known?: { state: string; reason: string; until: string } }[];
}

async function listFile(text: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-known-'));
  const file = join(dir, 'known-issues.yaml');
  await writeFile(file, text);
  return { dir, file };
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |internal error/);

// One CLI process at a time: each starts the embedded mock.
describe('run --known-issues', () => {
  it('turns what fixed-window breaks into KNOWN (exit 0) and names a listed case that passes as a WARN', async () => {
    const { dir, file } = await listFile(
      '- id: RL-04\n  reason: TRV-1234 fixed window until the next release\n  until: 2099-12-31\n- id: AU-01\n  reason: an old flake\n  until: 2099-12-31\n',
    );
    const { code, stdout, stderr } = await runCli([
      'run',
      '--only',
      'RL-04,AU-01,AU-02',
      '--mock-defects',
      'fixed-window',
      '--known-issues',
      file,
      '--report-dir',
      join(dir, 'reports'),
      '--json',
    ]);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as RunJson;
    expect(out.verdict).toBe('PASS');
    expect(out.summary).toMatchObject({ KNOWN: 1, WARN: 1, FAIL: 0 });
    expect(out.cases.find((c) => c.id === 'RL-04')).toMatchObject({
      verdict: 'KNOWN',
      known: { state: 'excused', reason: 'TRV-1234 fixed window until the next release', until: '2099-12-31' },
    });
    expect(out.cases.find((c) => c.id === 'AU-01')).toMatchObject({
      verdict: 'WARN',
      message: expect.stringMatching(/^AU-01 no longer fails: remove it from the known-issues list/),
    });
    const junit = await readFile(join(out.report_dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/name="RL-04 [^"]*"[^>]*>\s*<skipped message="KNOWN \(known issue until 2099-12-31: TRV-1234/);
    const md = await readFile(join(out.report_dir, 'summary.md'), 'utf8');
    expect(md).toContain('## Known issues');
    const html = await readFile(join(out.report_dir, 'report.html'), 'utf8');
    expect(html).toContain('known issue until 2099-12-31: TRV-1234 fixed window until the next release');
  });

  it('calls a listed case fixed only when the earlier runs of the same reports folder agree: one that failed there stays listed, a PASS', async () => {
    const { dir, file } = await listFile('- id: RL-04\n  reason: TRV-1234 fixed window\n  until: 2099-12-31\n');
    const reports = join(dir, 'reports');
    const run = (defects: string[]) =>
      runCli([
        'run',
        '--only',
        'RL-04,AU-02',
        ...(defects.length ? ['--mock-defects', defects.join(',')] : []),
        '--known-issues',
        file,
        '--report-dir',
        reports,
      ]);
    const broken = await run(['fixed-window']);
    expect(broken.code, broken.stderr).toBe(0);
    expect(broken.stdout).toContain('KNOWN RL-04');
    // Fixed in the next build: it passes, but it failed in the run before, so the entry stays and nothing warns.
    const fixed = await run([]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(
      /PASS {2}RL-04 \(known issue until 2099-12-31 \(TRV-1234 fixed window\): passed this run but failed in 1 of the 1 earlier run\(s\) of .*reports that ran it, so keep its entry\)/,
    );
    expect(fixed.stdout).not.toContain('no longer fails');
    expect(fixed.stdout).toMatch(/^PASS: 2 passed, 0 failed, 0 errors, 0 warnings/m);
  });

  it('prints the known case with its reason and date on the console', async () => {
    const { dir, file } = await listFile('- {id: RL-04, reason: TRV-1234, until: 2099-12-31}\n');
    const { code, stdout, stderr } = await runCli([
      'run',
      '--only',
      'RL-04,AU-01',
      '--mock-defects',
      'fixed-window',
      '--known-issues',
      file,
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^KNOWN RL-04 /m);
    expect(stdout).toContain('  KNOWN RL-04 (known issue until 2099-12-31: TRV-1234): ');
    expect(stdout).toMatch(/^PASS: 1 passed, 0 failed, .* 1 known of 2/m);
  });

  it('fails as usual when the entry expired, and says so (exit 1)', async () => {
    const { dir, file } = await listFile('- {id: RL-04, reason: TRV-1234, until: 2020-01-31}\n');
    const { code, stdout, stderr } = await runCli([
      'run',
      '--only',
      'RL-04,AU-01',
      '--mock-defects',
      'fixed-window',
      '--known-issues',
      file,
      '--report-dir',
      join(dir, 'reports'),
      '--json',
    ]);
    expect(code, stderr).toBe(1);
    const out = JSON.parse(stdout) as RunJson;
    expect(out.verdict).toBe('FAIL');
    expect(out.cases.find((c) => c.id === 'RL-04')).toMatchObject({
      verdict: 'FAIL',
      message: expect.stringContaining('(its known-issues entry expired on 2020-01-31: TRV-1234)'),
    });
  });

  it('refuses an unknown id and a file that is not YAML in one line, exit 2, before anything runs', async () => {
    for (const text of ['- {id: RL-4, reason: typo, until: 2099-12-31}\n', '- id: RL-04\n reason: [\n']) {
      const { file } = await listFile(text);
      const { code, stdout, stderr } = await runCli(['run', '--known-issues', file]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/known issues .*known-issues\.yaml: (entry 1 names "RL-4", which is no case id|not valid YAML)/);
      noStack(stderr);
    }
  });
});

describe('load --known-issues', () => {
  it('turns a listed breached gate into KNOWN (exit 0), and the console counts gates apart from verdicts', async () => {
    const { dir, file } = await listFile('- {id: "gate:rps>=100000000", reason: this machine is small, until: 2099-12-31}\n');
    const { code, stdout, stderr } = await runCli([...GATE_BREAKING_LOAD, '--threshold', 'errors.rate<=1', '--known-issues', file, '--report-dir', dir], {
      CI: '1',
    });
    expect(code, stderr).toBe(0);
    // The summary is the command's output (stdout); progress stays on stderr.
    expect(stdout).toMatch(/^verdicts: \d+ pass, 0 fail, \d+ warn, \d+ skip, 0 error; gates: 1 held, 0 breached, 1 known$/m);
    expect(stdout).toMatch(/^✓ PASS \(exit 0\)$/m);
    expect(stdout).toContain('  KNOWN gate:rps>=100000000 (known issue until 2099-12-31: this machine is small): ');
  });
});

describe('certify --known-issues', () => {
  it('is accepted only to say that a certificate ignores it', async () => {
    const { dir, file } = await listFile('- {id: RL-04, reason: r, until: 2099-12-31}\n');
    const { code, stdout, stderr } = await runCli(['certify', '--known-issues', file, '--generate-key', join(dir, 'keys')]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`note: certify ignores --known-issues ${file}: a certificate is never granted over a failure, so every failure counts`);
  });
});
