import { resolve } from 'node:path';

/** What a run was against, as far as a replay needs to know. */
interface ReplayTarget {
  /** The profile file the run loaded, when it loaded one. */
  targetFile?: string | undefined;
  /** True when the run started the embedded mock. */
  embedded: boolean;
  /** Defects the embedded mock ran with. */
  mockDefects?: Iterable<string> | undefined;
}

/**
 * The `run` arguments that point a replay at the same target: the profile
 * file (absolute, so the command works from any directory) and the embedded
 * mock's defects. A replay without them runs against the clean embedded mock,
 * where a counterexample found against a broken target passes.
 */
export function replayContext(t: ReplayTarget): string[] {
  const args: string[] = [];
  // A URL target is kept as given; a file is made absolute.
  if (t.targetFile !== undefined) args.push('--target', /^https?:\/\//i.test(t.targetFile) ? t.targetFile : resolve(t.targetFile));
  const defects = t.embedded ? [...(t.mockDefects ?? [])] : [];
  if (defects.length > 0) args.push('--mock-defects', defects.join(','));
  return args;
}
