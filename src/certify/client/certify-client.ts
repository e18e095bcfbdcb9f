import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { HarnessError } from '../../errors/harness-error.js';
import { createMock, DEFAULT_FIXTURE, type AgencyCredentials, type Fixture, type RunningMock } from '../../mock/index.js';
import { redactor } from '../../profile/redactor.js';
import { newRunId } from '../../results/run-id.js';
import { writeReports } from '../../report/write-reports.js';
import { recordRunFiles } from '../../report/run-manifest.js';
import { writeCertificate, type WrittenCertificate } from '../certificate/write-certificate.js';
import type { ClientIdentity } from '../certificate/types.js';
import { CertificationInterceptor } from './certification-interceptor.js';
import { clientEnv } from './client-env.js';
import { clientCertificateDraft, clientRunResult } from './client-run-result.js';
import { gradeClient } from './grade-client.js';
import type { GradedItem } from './client-check.js';
import { runClientCommand, type ClientCommandOutcome } from './run-client-command.js';

/** The defaults of a client certification: short real-time waits. */
export const CERTIFY_CLIENT_DEFAULTS = Object.freeze({
  agency: 'agency-alpha',
  /** Retry-After of the injected 429, s. */
  retryAfterS: 1,
  /** Quote lifetime, s: short, but long enough for a booking that first waits out a 429. */
  quoteLifetimeS: 30,
  /** Delay before a service webhook's second attempt, ms. */
  webhookBaseMs: 1_000,
  /** Longest a `--run` command may take, s. */
  timeoutS: 120,
  reportDir: 'reports',
});

/** Options of {@link certifyClient}. */
interface CertifyClientOptions {
  /** The agency whose credentials the client uses. @defaultValue 'agency-alpha' */
  agency?: string;
  /** A shell command that runs the client's flows; without it, the run is interactive (`waitForClient`). */
  run?: string;
  /** Longest the `run` command may take, s. @defaultValue 120 */
  timeoutS?: number;
  /** Interactive mode: resolves when the agency says its flows are done (Enter, a duration, SIGINT). */
  waitForClient?: () => Promise<void>;
  /** @defaultValue 'reports' */
  reportDir?: string;
  /** Ed25519 private key to sign the certificate with. */
  signKey?: KeyObject;
  /** @defaultValue 1 */
  retryAfterS?: number;
  /** @defaultValue 30 */
  quoteLifetimeS?: number;
  /** Interface the mock binds to: `0.0.0.0` lets a client in a container or on another machine reach it. @defaultValue '127.0.0.1' */
  host?: string;
  /** Ports of the mock (0 picks free ones). @defaultValue 0 */
  port?: number;
  hotelPort?: number;
  /** Working folder of the `run` command. @defaultValue the current folder */
  cwd?: string;
  /** Progress lines for a person. */
  print?: (line: string) => void;
  /** Aborted to stop the `run` command (its process group is killed) and grade what it did; the CLI aborts it on Ctrl-C. */
  stop?: AbortSignal;
  /** The client's name and version as the agency gives them, shown on the certificate beside the command line. */
  client?: ClientIdentity;
}

/** What a client certification produced. */
interface CertifyClientResult {
  runId: string;
  granted: boolean;
  items: GradedItem[];
  /** `<reportDir>/<runId>`: the reports. */
  reportDir: string;
  certificate: WrittenCertificate;
  command?: ClientCommandOutcome;
}

/** The default fixture with fresh secrets for the certified agency, so a client must read its credentials from configuration. */
function certificationFixture(agencyId: string): Fixture {
  const fixture = structuredClone(DEFAULT_FIXTURE) as Fixture;
  const agency = fixture.agencies.find((a) => a.agency_id === agencyId);
  if (!agency)
    throw new HarnessError('E_USAGE', `--agency ${agencyId} is not an agency of the mock (agencies: ${fixture.agencies.map((a) => a.agency_id).join(', ')})`);
  const tag = randomBytes(6).toString('hex');
  agency.secret = `svc_cert_${randomBytes(24).toString('base64url')}`;
  agency.webhook_secret = `whsec_${randomBytes(32).toString('base64')}`;
  agency.hotel_api_key = `hk_cert_${tag}${randomBytes(8).toString('hex')}`;
  agency.hotel_webhook_secret = `hwsec_${randomBytes(16).toString('hex')}`;
  agency.webhook_url = null;
  return fixture;
}

function positive(name: string, v: number | undefined, fallback: number): number {
  const n = v ?? fallback;
  if (!Number.isFinite(n) || n <= 0) throw new HarnessError('E_USAGE', `${name} must be a number > 0, got ${String(v)}`);
  return n;
}

/** The lines that tell an agency where to point its client. */
function connectionLines(mock: RunningMock, agency: AgencyCredentials, runId: string, options: { hideSecrets?: boolean } = {}): string[] {
  const secret = new Set([agency.secret, agency.webhook_secret, agency.hotel_api_key, agency.hotel_webhook_secret]);
  return Object.entries(clientEnv({ baseUrl: mock.baseUrl, hotelBaseUrl: mock.hotelBaseUrl, agency, runId })).map(
    ([k, v]) => `  ${k}=${options.hideSecrets && secret.has(v) ? "(in the command's environment)" : v}`,
  );
}

/**
 * `certify-client`: starts the mock in certification mode, lets the agency's
 * client run its flows against it (a `run` command given the URLs and
 * credentials in its environment, or interactively), grades what the client
 * did, and writes the reports and a client certificate into
 * `<reportDir>/<run id>/` and `<reportDir>/<run id>/certificate/`.
 */
export async function certifyClient(options: CertifyClientOptions = {}): Promise<CertifyClientResult> {
  const print = options.print ?? (() => undefined);
  const agencyId = options.agency ?? CERTIFY_CLIENT_DEFAULTS.agency;
  const retryAfterS = positive('--retry-after', options.retryAfterS, CERTIFY_CLIENT_DEFAULTS.retryAfterS);
  const quoteLifetimeS = positive('--quote-lifetime', options.quoteLifetimeS, CERTIFY_CLIENT_DEFAULTS.quoteLifetimeS);
  const timeoutS = positive('--timeout', options.timeoutS, CERTIFY_CLIENT_DEFAULTS.timeoutS);
  if (!Number.isInteger(retryAfterS)) throw new HarnessError('E_USAGE', `--retry-after must be whole seconds, got ${retryAfterS}`);
  if (options.run !== undefined && options.run.trim() === '') throw new HarnessError('E_USAGE', '--run needs a command');
  if (options.run === undefined && !options.waitForClient) throw new HarnessError('E_USAGE', 'give --run "<command>", or run interactively');
  const reportDir = options.reportDir ?? CERTIFY_CLIENT_DEFAULTS.reportDir;

  const fixture = certificationFixture(agencyId);
  const def = fixture.agencies.find((a) => a.agency_id === agencyId)!;
  const interceptor = new CertificationInterceptor({ agencyId, webhookSecret: def.webhook_secret, writeLimit: def.limits.write, retryAfterS });
  const runId = newRunId();
  const mock = await createMock({
    fixture,
    interceptor,
    quoteLifetimeS,
    webhookBaseMs: CERTIFY_CLIENT_DEFAULTS.webhookBaseMs,
    ...(options.host !== undefined ? { host: options.host } : {}),
    port: options.port ?? 0,
    hotelPort: options.hotelPort ?? 0,
  });
  const agency = mock.agencies.find((a) => a.agency_id === agencyId)!;
  const secrets = [agency.secret, agency.webhook_secret, agency.hotel_api_key, agency.hotel_webhook_secret];
  const notes: string[] = [];
  let command: ClientCommandOutcome | undefined;
  const startedAt = Date.now();
  try {
    print(`certify-client: run ${runId}, agency ${agencyId}; the mock is in certification mode:`);
    for (const line of connectionLines(mock, agency, runId, { hideSecrets: options.run !== undefined })) print(line);
    if (options.run !== undefined) {
      print(`running: ${options.run} (timeout ${timeoutS} s)`);
      command = await runClientCommand({
        command: options.run,
        env: clientEnv({ baseUrl: mock.baseUrl, hotelBaseUrl: mock.hotelBaseUrl, agency, runId }),
        timeoutMs: timeoutS * 1000,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        onLine: (l) => print(`  | ${l}`),
        stop: options.stop,
      });
      if (command.error !== undefined) notes.push(`the client command could not be started: ${command.error}`);
      else if (command.timedOut) notes.push(`the client command was stopped after the ${timeoutS} s timeout`);
      else if (command.exitCode !== 0) notes.push(`the client command exited with ${command.exitCode ?? `signal ${command.signal ?? '?'}`}`);
      print(
        `client command ended: ${command.timedOut ? 'timed out' : `exit ${command.exitCode ?? command.signal ?? '?'}`} after ${(command.durationMs / 1000).toFixed(1)} s`,
      );
    } else {
      await options.waitForClient!();
    }
    await interceptor.settled();
  } finally {
    await mock.close();
  }
  const finishedAt = Date.now();

  const observation = interceptor.observation();
  const items = gradeClient(observation, { keyId: agency.key_id, secret: agency.secret });
  const facts = {
    runId,
    agencyId,
    baseUrl: mock.baseUrl,
    hotelBaseUrl: mock.hotelBaseUrl,
    mode: options.run !== undefined ? ('run' as const) : ('interactive' as const),
    startedAt,
    finishedAt,
    observation,
    items,
    ...(command ? { command } : {}),
    ...(options.client ? { client: options.client } : {}),
    notes,
  };
  const written = await writeReports(redactor(secrets)(clientRunResult(facts)), reportDir);
  const certificate = await writeCertificate(path.join(written.dir, 'certificate'), clientCertificateDraft(facts), {
    secrets,
    ...(options.signKey ? { signKey: options.signKey } : {}),
  });
  await recordRunFiles(written.dir, certificate.files);
  return { runId, granted: certificate.certificate.granted, items, reportDir: written.dir, certificate, ...(command ? { command } : {}) };
}
