import type { Profile } from '../profile/index.js';
import { startReceiver, type Receiver, type ReceiverOptions } from './receiver.js';

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * Starts the webhook receiver for a target, when the target can reach it: it
 * runs on this machine (or is the embedded mock), or a public URL says how.
 * `host`, `port` and `publicUrl` win over the profile's `receiver`. Resolves
 * to undefined, starting nothing, when nothing says how a remote target could
 * reach the harness.
 */
export async function startTargetReceiver(profile: Readonly<Profile>, options: ReceiverOptions & { embedded: boolean }): Promise<Receiver | undefined> {
  const publicUrl = options.publicUrl ?? profile.receiver.public_url ?? undefined;
  if (publicUrl === undefined && !options.embedded && !isLoopbackUrl(profile.base_url)) return undefined;
  return startReceiver({
    host: options.host ?? profile.receiver.host,
    port: options.port ?? profile.receiver.port,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}
