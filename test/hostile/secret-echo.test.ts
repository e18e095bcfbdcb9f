import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { secretsIn, secretsUnder } from '../helpers/secret-scan.js';
import { startEchoTarget, type EchoTarget } from './fixtures/echo-target.js';

// Two agencies, each with its four secrets; one as long as the one the 64 KiB limit cut (41 characters).
const AGENCIES = ['alpha', 'beta'] as const;
const FIELDS = ['secret', 'webhook_secret', 'hotel_api_key', 'hotel_webhook_secret'] as const;
const VALUES: Record<string, string> = {
  alpha_secret: 'sk_alpha/Echo+Secret=0123456789abcdefXYZ',
  alpha_webhook_secret: 'whsec_alpha-echo_webhook-2222',
  alpha_hotel_api_key: 'hk.alpha.echo.three.3333',
  alpha_hotel_webhook_secret: 'hwh/alpha+echo_four==',
  beta_secret: 'sk_beta/Other+Agency=98765zz',
  beta_webhook_secret: 'whsec_beta-echo_webhook-5555',
  beta_hotel_api_key: 'hk.beta.echo.seven.7777',
  beta_hotel_webhook_secret: 'hwh/beta+echo_eight==',
};
const USER = 'opsuser-echo';
const PASSWORD = 'hunter2-pass-echo';
const SECRETS = [...Object.values(VALUES), USER, PASSWORD];
const ENV = Object.fromEntries(Object.entries(VALUES).map(([k, v]) => [`T_ECHO_${k.toUpperCase()}`, v]));

let target: EchoTarget;
let dir: string;
let profile: string;

beforeAll(async () => {
  target = await startEchoTarget(SECRETS);
  dir = await mkdtemp(path.join(tmpdir(), 'svc-secret-echo-'));
  profile = path.join(dir, 'echo.yaml');
  const agencies = AGENCIES.map(
    (a) =>
      `  - {id: agency-${a}, key_id: ak_${a}, limits: {read: 4, write: 3}, ${FIELDS.map((f) => `${f}_env: T_ECHO_${a.toUpperCase()}_${f.toUpperCase()}`).join(', ')}}`,
  );
  const base = target.url.replace('http://', `http://${USER}:${PASSWORD}@`);
  await writeFile(
    profile,
    `base_url: ${base}/v1\nhotel_base_url: null\nclock: {control: none}\nrequest_timeout_ms: 2000\nlimits: {window_s: 2}\nagencies:\n${agencies.join('\n')}\n`,
  );
});
afterAll(async () => {
  await target?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every secret found on the console and in the logs of a CLI run. */
function consoleLeaks(run: CliRun): string[] {
  return [...secretsIn(run.stdout, SECRETS, 'stdout'), ...secretsIn(run.stderr, SECRETS, 'stderr')];
}

// Real-time runs against a target that answers slowly on purpose: generous budgets, since the e2e tier runs several files at once.
describe('a target that echoes every secret in every form', () => {
  it('run: no secret in any report file, on the console or in the logs', async () => {
    const reports = path.join(dir, 'run');
    const run = await runCli(['run', '--target', profile, '--only', 'AU-01,AU-02,CT-01,ER-01,RL-03', '--report-dir', reports, '--log-level', 'debug'], ENV);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(await readFile(path.join(reports, 'latest', 'report.json'), 'utf8')).toContain('[REDACTED]');
    expect([...(await secretsUnder(reports, SECRETS)), ...consoleLeaks(run)]).toEqual([]);
  }, 240_000);

  it('load: no secret in any report file, on the console or in the logs', async () => {
    const reports = path.join(dir, 'load');
    const run = await runCli(
      ['load', '--target', profile, '--duration', '2', '--requests', '200', '--connections', '2', '--report-dir', reports, '--log-level', 'debug'],
      ENV,
    );
    expect(run.stderr).not.toMatch(/internal error/);
    expect([...(await secretsUnder(reports, SECRETS)), ...consoleLeaks(run)]).toEqual([]);
  }, 60_000);

  it('certify agency-alpha: a certificate is written, holding neither its secrets nor beta’s', async () => {
    const reports = path.join(dir, 'certify');
    const run = await runCli(
      ['certify', '--target', profile, '--agency', 'agency-alpha', '--report-dir', reports, '--max-wait', '1', '--log-level', 'debug'],
      ENV,
    );
    expect(run.code, run.stderr).not.toBe(70);
    expect(await readFile(path.join(reports, 'latest', 'certificate', 'certificate.json'), 'utf8')).toContain('"granted"');
    expect([...(await secretsUnder(reports, SECRETS)), ...consoleLeaks(run)]).toEqual([]);
  }, 240_000);
});
