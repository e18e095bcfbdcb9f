import { MemoryRecorder } from '../client/exchange.js';
import { HarnessError, isHarnessError } from '../errors/harness-error.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import { createTargetApi } from './target-api.js';

/** What the target answered the probe: its status and the error code of its body, if any. */
interface ProbeAnswer {
  status: number;
  code: string | undefined;
  /** Set when the answer came but its body was larger than the harness reads: the target answers, yet nothing it says can be judged. */
  tooLarge?: string;
}

/**
 * A signed GET of the account, before anything else: any answer will do,
 * even one too large to read (`tooLarge`, so that the run goes on and its
 * report says so); a target that does not answer at all stops the run with
 * E_TARGET_UNREACHABLE (exit 3).
 */
export async function probeTarget(profile: Readonly<Profile>, agency: ResolvedAgency, label: string): Promise<ProbeAnswer> {
  const api = createTargetApi({ profile, agency, recorder: new MemoryRecorder() });
  try {
    const res = await api.account({ label });
    return { status: res.status, code: api.errorCode(res) };
  } catch (err) {
    if (isHarnessError(err) && err.code === 'E_RESPONSE_TOO_LARGE') return { status: 0, code: undefined, tooLarge: err.message };
    if (isHarnessError(err) && (err.code === 'E_TARGET_UNREACHABLE' || err.code === 'E_TRANSPORT')) {
      throw new HarnessError('E_TARGET_UNREACHABLE', `target ${profile.base_url} is unreachable: ${err.message}`, { cause: err });
    }
    throw err;
  } finally {
    await api.close();
  }
}
