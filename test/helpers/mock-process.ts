import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { cliArgs } from './cli-entry.js';

/** A mock running in another process, as a user starts it with `svc-harness mock --admin --json`. */
export interface MockProcess {
  baseUrl: string;
  adminUrl: string;
  agencies: Array<{ agency_id: string; key_id: string; secret: string; webhook_secret: string }>;
  /**
   * Writes a profile of this mock (no clock control unless `o.adminClock`, limits read from the accounts, `o.extra`
   * appended as YAML lines) and returns its path.
   */
  profile(dir: string, windowS: number, o?: { adminClock?: boolean; extra?: string }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts `svc-harness mock --admin --json` on free ports in a child process,
 * with `agencies` generated agencies of the given limits and wallet (minor
 * units; a fixture file in `dir`) and the extra mock options given; resolves once its JSON line came.
 */
export async function startMockProcess(
  dir: string,
  o: { agencies: number; limits: { read: number; write: number }; args?: string[]; wallet?: number },
): Promise<MockProcess> {
  const fixture = join(dir, 'fixture.json');
  const agencies = generateAgencies(o.agencies, { limits: o.limits }).map((a) => (o.wallet === undefined ? a : { ...a, wallet: o.wallet }));
  await writeFile(fixture, JSON.stringify({ agencies }));
  const child: ChildProcess = spawn(
    process.execPath,
    [...cliArgs(), 'mock', '--admin', '--json', '--port', '0', '--hotel-port', '0', '--admin-port', '0', '--fixture', fixture, ...(o.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const info = await new Promise<{ base_url: string; admin_url: string; agencies: MockProcess['agencies'] }>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { base_url: string; admin_url: string; agencies: MockProcess['agencies'] });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`mock exited ${String(code)} before listening: ${err}`)));
  });
  return {
    baseUrl: info.base_url,
    adminUrl: info.admin_url,
    agencies: info.agencies,
    async profile(where, windowS, o = {}) {
      const file = join(where, 'profile.yaml');
      const agencies = info.agencies
        .map((a) => `  - {id: ${a.agency_id}, key_id: ${a.key_id}, secret: ${JSON.stringify(a.secret)}, webhook_secret: ${JSON.stringify(a.webhook_secret)}}`)
        .join('\n');
      const clock = o.adminClock ? `clock:\n  control: mock-admin\n  admin_url: ${info.admin_url}` : 'clock:\n  control: none';
      await writeFile(
        file,
        `name: mock-process\nbase_url: ${info.base_url}\nhotel_base_url: null\n${clock}\nlimits:\n  window_s: ${windowS}\nagencies:\n${agencies}\n${o.extra ?? ''}\n`,
      );
      return file;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
