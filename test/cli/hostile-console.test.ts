import { createServer, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/** Terminal controls: C0 but tab and newline, DEL, C1, bidi controls. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Refuses everything with an error code (and message) full of terminal escapes. */
function hostileServer(): Server {
  return createServer((req, res) => {
    req.resume();
    const body = JSON.stringify({ error: { code: 'BAD\u001b[2J\u001b]0;owned\u0007CODE\u202e\u009b31m', message: 'no\u001b[1A\rway\u0085', request_id: 'r-1' } });
    res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
    res.end(body);
  });
}

describe('a target that writes terminal escapes into its answers', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = hostileServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('reaches the console with none of them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-hostile-console-'));
    const file = join(dir, 'hostile.yaml');
    await writeFile(file, `base_url: http://127.0.0.1:${port}/v1\nhotel_base_url: null\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_HOSTILE_SECRET}\n`);
    const { stdout, stderr } = await runCli(['run', '--target', file, '--only', 'AU-01,AU-02,ER-01', '--report-dir', join(dir, 'reports')], { T_HOSTILE_SECRET: 'hostile-secret' });
    // The code is quoted, only without its controls.
    expect(stdout).toContain('BADCODE');
    expect(stdout).not.toMatch(CONTROLS);
    expect(stderr).not.toMatch(CONTROLS);
  });
});
