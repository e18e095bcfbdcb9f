import type { Profile } from '../../profile/index.js';
import type { Answer } from './expect-error.js';
import type { Findings } from '../findings.js';

/** A response with its raw bytes. */
export type ByteAnswer = Answer & { bytes: Buffer };

/** Index of the first byte where two bodies differ, or -1 when equal. */
function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Header value by case-insensitive name. */
function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want) return v;
  return undefined;
}

/** Judges a replay against its original: same status, byte-identical body, and the replayed header. */
export function judgeReplay(f: Findings, original: ByteAnswer, replay: ByteAnswer, what: string, profile: Profile): void {
  f.expect(replay.status === original.status, `${what}: it answered ${replay.status}, the original answered ${original.status}`, original, replay);
  const at = firstDifference(original.bytes, replay.bytes);
  f.expect(at < 0, `${what}: its body differs from the original's at byte ${at} (${replay.bytes.length} bytes vs ${original.bytes.length})`, original, replay);
  const flag = headerValue(replay.headers, profile.headers.idempotent_replayed);
  f.expect(
    flag === profile.values.replayed_true,
    `${what}: it carries ${profile.headers.idempotent_replayed}: ${flag ?? '(absent)'}, expected ${profile.values.replayed_true}`,
    replay,
  );
}
