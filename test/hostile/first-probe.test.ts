import { createServer, type Server } from 'node:http';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './_files.js';

/** Answers every request 200 with a 20 MiB body, past the 16 MiB the harness reads. */
function hugeServer(): Server {
  const chunk = Buffer.alloc(1 << 20, 0x61);
  return createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    let n = 0;
    const write = (): void => {
      while (n < 20) {
        n += 1;
        if (!res.write(chunk)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    write();
  });
}

describe('a target whose first answer (the probe) is too large to read', () => {
  let server: Server;
  let port: number;
  const dir = tempDir('svc-hostile-probe-');
  beforeAll(async () => {
    server = hugeServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  it('gets its report written, the probe named in it, and exit 3 when nothing could pass', async () => {
    const file = path.join(dir, 'huge.yaml');
    await writeFile(
      file,
      `base_url: http://127.0.0.1:${port}/v1\nhotel_base_url: null\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_HUGE_SECRET}\n`,
    );
    const reports = path.join(dir, 'reports');
    const run = await runCli(['run', '--target', file, '--only', 'AU-01,ER-01', '--report-dir', reports], { T_HUGE_SECRET: 'huge-secret' });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/The target is unusable: the target answered the probe .* larger than the harness reads/);
    const runs = (await readdir(reports)).filter((n) => n !== 'latest' && n !== 'latest.json');
    expect(runs).toHaveLength(1);
    const report = JSON.parse(await readFile(path.join(reports, runs[0]!, 'report.json'), 'utf8')) as { verdict: string; notes: string[] };
    expect(report.verdict).toBe('INCONCLUSIVE');
    expect(report.notes.join('\n')).toMatch(/answered the probe \(a signed GET of the account\) with a body larger than the harness reads/);
  });
});
