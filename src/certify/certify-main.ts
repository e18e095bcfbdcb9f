import path from 'node:path';
import { probeTarget } from '../api/probe-target.js';
import { HarnessError } from '../errors/harness-error.js';
import type { RunningMock } from '../mock/index.js';
import { loadProfile } from '../profile/load-profile.js';
import { resolveAgencies, secretsOf } from '../profile/resolve-secrets.js';
import type { Profile, ResolvedAgency } from '../profile/types.js';
import { startTargetReceiver, type Receiver } from '../receiver/index.js';
import { newRunId } from '../report/run-id.js';
import { RealClockDriver } from '../runner/real-clock-driver.js';
import { parseSigningKey, readPemFile, generateSigningKeyPair } from './certificate/signing.js';
import { writeCertificate } from './certificate/write-certificate.js';
import { EMBEDDED_DEFAULT_AGENCY, startEmbeddedTarget } from './embedded-target.js';
import { DEFAULT_MAX_WAIT_S, runCertification } from './run-certification.js';

/** Arguments of `svc-harness certify`. */
export interface CertifyArgs {
  target?: string | undefined;
  agency?: string | undefined;
  'report-dir': string;
  'sign-key'?: string | undefined;
  'generate-key'?: string | undefined;
  'max-wait'?: number | undefined;
  'receiver-host'?: string | undefined;
  'receiver-port'?: number | undefined;
  'receiver-url'?: string | undefined;
}

function pickAgency(profile: Readonly<Profile>, wanted: string | undefined, embedded: boolean): ResolvedAgency {
  const id = wanted ?? (embedded ? EMBEDDED_DEFAULT_AGENCY : profile.agencies[0]?.id);
  const def = profile.agencies.find((a) => a.id === id);
  if (!def) throw new HarnessError('E_USAGE', `--agency ${String(id)} is not in the profile (agencies: ${profile.agencies.map((a) => a.id).join(', ') || 'none'})`);
  return resolveAgencies({ agencies: [def] }, process.env, {})[0]!;
}

/** `svc-harness certify`: runs the certification plan and writes `<report-dir>/<run id>/certificate/`. Returns the exit code (0 granted, 1 refused). */
export async function certifyCommandMain(args: CertifyArgs, print: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  if (args['generate-key'] !== undefined) {
    const pair = await generateSigningKeyPair(args['generate-key']);
    print(`private key: ${pair.privateKeyFile} (keep it secret; pass it as --sign-key)`);
    print(`public key:  ${pair.publicKeyFile} (give it to whoever verifies: verify-certificate DIR --public-key ${pair.publicKeyFile})`);
    print(`public key SHA-256: ${pair.fingerprint}`);
    return 0;
  }
  const maxWaitS = args['max-wait'] ?? DEFAULT_MAX_WAIT_S;
  if (!Number.isFinite(maxWaitS) || maxWaitS < 0) throw new HarnessError('E_USAGE', `--max-wait must be a number of seconds ≥ 0, got ${String(args['max-wait'])}`);
  // Read the key before a run of a minute, not after it.
  const signKey = args['sign-key'] !== undefined ? parseSigningKey(await readPemFile(args['sign-key'], 'signing key'), `signing key ${args['sign-key']}`) : undefined;

  let mock: RunningMock | undefined;
  let receiver: Receiver | undefined;
  try {
    let profile: Readonly<Profile>;
    if (args.target !== undefined) profile = await loadProfile(args.target);
    else ({ mock, profile } = await startEmbeddedTarget());
    const embedded = mock !== undefined;
    const agency = pickAgency(profile, args.agency, embedded);
    // Fails early, with exit 3, when the target does not answer at all.
    await probeTarget(profile, agency, 'certify: probe');

    receiver = await startTargetReceiver(profile, { host: args['receiver-host'], port: args['receiver-port'], publicUrl: args['receiver-url'], embedded });
    const receiverMissing = receiver
      ? undefined
      : 'the target is not on this machine and nothing says how it can reach the harness: pass --receiver-url (and --receiver-host/--receiver-port) or set receiver.public_url';

    const runId = newRunId();
    const dir = path.join(args['report-dir'], runId, 'certificate');
    print(`certifying ${agency.id} against ${profile.base_url}${embedded ? ' (embedded mock)' : ''}: plan svc-agency-cert, run ${runId}`);
    const draft = await runCertification({
      profile,
      agency,
      clock: new RealClockDriver(),
      ...(receiver ? { receiver } : {}),
      ...(receiverMissing ? { receiverMissing } : {}),
      maxWaitS,
      runId,
      tidyUp: !embedded,
      target: { base_url: profile.base_url, profile: profile.name, embedded },
      onTest: (t) => print(`  ${t.verdict.padEnd(5)} ${t.id} ${t.title} (${(t.durationMs / 1000).toFixed(1)} s): ${t.message}`),
      log: (line) => print(`        ${line}`),
    });
    const written = await writeCertificate(dir, draft, { secrets: secretsOf([agency]), ...(signKey ? { signKey } : {}) });
    const c = written.certificate;
    const took = (c.duration_ms / 1000).toFixed(1);
    print(`certificate ${c.granted ? 'GRANTED' : `REFUSED by ${c.refused_by.join(', ')}`}${c.skipped.length > 0 ? ` (not run: ${c.skipped.join(', ')})` : ''} in ${took} s`);
    print(`written to ${dir}${signKey ? `, signed (Ed25519, key SHA-256 ${c.signing?.public_key_sha256.slice(0, 16)}…)` : ', not signed (pass --sign-key to sign)'}`);
    return c.granted ? 0 : 1;
  } finally {
    await receiver?.close();
    await mock?.close();
  }
}
