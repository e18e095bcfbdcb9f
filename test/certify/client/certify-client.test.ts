import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { certifyClient } from '../../../src/certify/client/certify-client.js';
import { isHarnessError } from '../../../src/errors/harness-error.js';

const tmp = (): Promise<string> => mkdtemp(join(tmpdir(), 'svc-cc-'));

describe.concurrent('certifyClient', () => {
  it('passes the URLs and credentials to the --run command and refuses a client that does nothing, naming why', async () => {
    const dir = await tmp();
    const lines: string[] = [];
    const script =
      'console.log([process.env.SVC_BASE_URL, process.env.SVC_KEY_ID, process.env.SVC_HOTEL_BASE_URL, process.env.SVC_AGENCY_ID, (process.env.SVC_WEBHOOK_SECRET||"").slice(0,6)].join(" "))';
    const r = await certifyClient({ run: `node -e '${script}'`, reportDir: dir, print: (l) => lines.push(l) });
    expect(r.command?.exitCode).toBe(0);
    expect(r.command?.output).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1 ak_alpha http:\/\/127\.0\.0\.1:\d+ agency-alpha whsec_\n$/);
    expect(r.granted).toBe(false);
    expect(r.certificate.certificate.refused_by).toEqual(['CC-01', 'CC-02', 'CC-03', 'CC-04', 'CC-05', 'CC-06', 'CC-07', 'CC-08', 'CC-09', 'CC-10']);
    expect(r.items.find((g) => g.item.id === 'CC-07')!.message).toBe('the client never read GET /v1/account, so it cannot know which products are closed');
    expect(r.items.find((g) => g.item.id === 'CC-01')!.message).toBe('not exercised: the client sent no request');
    const output = await readFile(join(r.certificate.dir, 'evidence', 'client-output.txt'), 'utf8');
    expect(output).toContain('# exit 0');
    expect(lines.some((l) => l.includes('SVC_SECRET=(in'))).toBe(true);
  });

  it('stops a --run command at its timeout and still grades', async () => {
    const t0 = Date.now();
    const r = await certifyClient({ run: 'sleep 30', timeoutS: 0.5, reportDir: await tmp() });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.command?.timedOut).toBe(true);
    expect(r.granted).toBe(false);
    expect(r.certificate.certificate.notes).toContain('the client command was stopped after the 0.5 s timeout');
  });

  it('rejects bad options with a usage error', async () => {
    await expect(certifyClient({ run: 'true', agency: 'agency-nobody' })).rejects.toSatisfy(
      (e) => isHarnessError(e) && e.code === 'E_USAGE' && /agency-nobody is not an agency/.test(e.message),
    );
    await expect(certifyClient({ run: 'true', retryAfterS: 0 })).rejects.toSatisfy(
      (e) => isHarnessError(e) && /--retry-after must be a number > 0/.test(e.message),
    );
    await expect(certifyClient({})).rejects.toSatisfy((e) => isHarnessError(e) && /--run/.test(e.message));
  });

  it('interactive mode prints where to point the client, waits --duration, then grades (CLI)', async () => {
    const dir = await tmp();
    const r = await runCli(['certify-client', '--duration', '0.3', '--report-dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/SVC_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(r.stdout).toMatch(/SVC_SECRET=svc_cert_\S+/);
    expect(r.stdout).toContain('wait 0.3 s');
    expect(r.stdout).toContain('client certificate REFUSED by CC-01');
  });

  it('a bad flag is one line, exit 2', async () => {
    const r = await runCli(['certify-client', '--run', 'true', '--duration', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--duration is for interactive runs');
  });
});
