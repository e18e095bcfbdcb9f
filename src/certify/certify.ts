import type { KeyObject } from 'node:crypto';
import { probeTarget } from '../api/probe-target.js';
import { HarnessError } from '../errors/harness-error.js';
import type { RunningMock } from '../mock/index.js';
import { loadProfile, type Profile, type ResolvedAgency } from '../profile/index.js';
import { knownSecrets } from '../profile/known-secrets.js';
import { resolveAgencies, secretsOf } from '../profile/resolve-secrets.js';
import { startTargetReceiver, type Receiver } from '../receiver/index.js';
import { newRunId } from '../results/run-id.js';
import { RealClockDriver } from '../clock/real-clock-driver.js';
import type { WrittenCertificate } from './certificate/write-certificate.js';
import { writeCertificationRun } from './write-certification-run.js';
import { EMBEDDED_DEFAULT_AGENCY, startEmbeddedTarget } from './embedded-target.js';
import { DEFAULT_MAX_WAIT_S } from '../clock/max-wait.js';
import { runCertification, type RunCertificationOptions } from './run-certification.js';

/** Options of {@link certify}. */
interface CertifyOptions {
  /** A YAML or JSON target profile; without it the embedded mock is started. */
  targetFile?: string;
  /** Agency to certify. @defaultValue the first of the profile; agency-alpha on the embedded mock */
  agency?: string;
  /** The reports go to `<reportDir>/<run id>/` (and `<reportDir>/latest` points there), the certificate to its `certificate/`. */
  reportDir: string;
  /** The command line, for the reports. */
  command?: string;
  /** Ed25519 private key to sign certificate.json with. */
  signKey?: KeyObject;
  /** @defaultValue {@link DEFAULT_MAX_WAIT_S} */
  maxWaitS?: number;
  /** The webhook receiver: bind address, and the URL the target reaches it at. */
  receiver?: { host?: string; port?: number; publicUrl?: string };
  /** Once the target answered and the run has its id, before the first test. */
  onStart?: (info: { agency: string; baseUrl: string; embedded: boolean; runId: string }) => void;
  onTest?: RunCertificationOptions['onTest'];
  log?: RunCertificationOptions['log'];
}

function pickAgency(profile: Readonly<Profile>, wanted: string | undefined, embedded: boolean): ResolvedAgency {
  const id = wanted ?? (embedded ? EMBEDDED_DEFAULT_AGENCY : profile.agencies[0]?.id);
  const def = profile.agencies.find((a) => a.id === id);
  if (!def)
    throw new HarnessError('E_USAGE', `--agency ${String(id)} is not in the profile (agencies: ${profile.agencies.map((a) => a.id).join(', ') || 'none'})`);
  return resolveAgencies({ agencies: [def] }, process.env, {})[0]!;
}

/**
 * The second agency CERT-09 tries the certified agency against: another of
 * the profile's agencies of the same organisation, its secrets resolved; or
 * why there is none.
 */
export function pickPartner(profile: Readonly<Profile>, agency: ResolvedAgency): { partner: ResolvedAgency } | { partnerMissing: string } {
  const org = profile.agencies.find((a) => a.id === agency.id)?.organisation;
  if (org === undefined)
    return { partnerMissing: `the profile names no organisation for ${agency.id} (agencies[].organisation), so no other agency may be tried against it` };
  const other = profile.agencies.find((a) => a.id !== agency.id && a.organisation === org);
  if (!other) return { partnerMissing: `the profile gives no second agency of organisation ${org}` };
  try {
    return { partner: resolveAgencies({ agencies: [other] }, process.env, {})[0]! };
  } catch (err) {
    return { partnerMissing: `the second agency ${other.id} of organisation ${org} has no usable secret: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Certifies an agency's integration: starts the embedded mock unless a
 * target is named, probes the target (exit 3 when it does not answer), runs
 * the certification plan in real time and writes the (signed) certificate.
 */
export async function certify(options: CertifyOptions): Promise<WrittenCertificate & { reportDir: string }> {
  let mock: RunningMock | undefined;
  let receiver: Receiver | undefined;
  try {
    let profile: Readonly<Profile>;
    if (options.targetFile !== undefined) profile = await loadProfile(options.targetFile);
    else ({ mock, profile } = await startEmbeddedTarget());
    const embedded = mock !== undefined;
    const agency = pickAgency(profile, options.agency, embedded);
    await probeTarget(profile, agency, 'certify: probe');

    receiver = await startTargetReceiver(profile, { ...options.receiver, embedded });
    const receiverMissing = receiver
      ? undefined
      : 'the target is not on this machine and nothing says how it can reach the harness: pass --receiver-url (and --receiver-host/--receiver-port) or set receiver.public_url';

    const partnerPick = pickPartner(profile, agency);
    const runId = newRunId();
    options.onStart?.({ agency: agency.id, baseUrl: profile.base_url, embedded, runId });
    const draft = await runCertification({
      profile,
      agency,
      clock: new RealClockDriver(),
      ...(receiver ? { receiver } : {}),
      ...(receiverMissing ? { receiverMissing } : {}),
      ...partnerPick,
      maxWaitS: options.maxWaitS ?? DEFAULT_MAX_WAIT_S,
      runId,
      tidyUp: !embedded,
      target: { base_url: profile.base_url, profile: profile.name, embedded },
      ...(options.onTest ? { onTest: options.onTest } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    const written = await writeCertificationRun(
      options.reportDir,
      draft,
      { runId, command: options.command ?? 'svc-harness certify', targetName: profile.name, baseUrl: profile.base_url, embedded },
      // Every secret the profile holds: another agency's, echoed by the target, is not to be shown in this agency's certificate either.
      { secrets: [...secretsOf('partner' in partnerPick ? [agency, partnerPick.partner] : [agency]), ...knownSecrets()], signKey: options.signKey },
    );
    return { ...written.certificate, reportDir: written.reports.dir };
  } finally {
    await receiver?.close();
    await mock?.close();
  }
}
