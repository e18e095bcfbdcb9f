import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMock } from '../../../src/mock/index.js';
import { agencyFromMock } from '../../../src/profile/agency-from-mock.js';
import { runCli, type CliRun } from '../../helpers/run-cli.js';

/**
 * Runs `svc-harness load` for `seconds` against a mock on port 0 whose every
 * request is handled `latencyMs` late, its reports written under `reportDir`;
 * returns the CLI run and the run folder.
 */
export async function loadAgainstSlowMock(latencyMs: number, reportDir: string, seconds = 1, extra: string[] = []): Promise<{ run: CliRun; dir: string }> {
  const mock = await createMock({ port: 0, hotelPort: 0, latencyMs, agencies: 2 });
  try {
    await mkdir(reportDir, { recursive: true });
    const profile = join(reportDir, `profile-${latencyMs}.json`);
    const agencies = mock.agencies.filter((a) => a.agency_id.startsWith('agency-load-')).map((a) => agencyFromMock(a));
    await writeFile(
      profile,
      JSON.stringify({ name: `mock-${latencyMs}ms`, base_url: mock.baseUrl, hotel_base_url: mock.hotelBaseUrl, clock: { control: 'none' }, agencies }),
    );
    const run = await runCli(
      ['load', '--target', profile, '--duration', String(seconds), '--connections', '4', '--report-dir', reportDir, '--json', ...extra],
      { CI: '1' },
    );
    const dir = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { report_dir?: string }).report_dir ?? '';
    return { run, dir };
  } finally {
    await mock.close();
  }
}
