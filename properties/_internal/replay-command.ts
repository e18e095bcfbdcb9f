/** What a replay command is made of. */
interface ReplayCommandParts {
  /** The property's name, without the `property:` prefix. */
  name: string;
  seed: number;
  /** fast-check path of the counterexample; absent before a failure. */
  path?: string | null | undefined;
  /** fast-check replay path of a shrunk command list (model-based properties), with `path`. */
  replayPath?: string | undefined;
  /** Arguments naming the target the run was against (`--target file`, `--mock-defects a,b`). */
  context?: readonly string[] | undefined;
}

// Anything outside this set is quoted, so a path with spaces or a `$` pastes back as one argument.
const SAFE = /^[\w@%+=:,./-]+$/;

/** One shell word, single-quoted when it holds anything a POSIX shell would read. */
export function shellWord(word: string): string {
  return word !== '' && SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that replays a property's counterexample: the same target
 * (profile file or embedded mock with its defects), the property alone, its
 * seed and, after a failure, fast-check's paths. Without the target a replay
 * would run against the clean embedded mock and pass.
 */
export function replayCommand(p: ReplayCommandParts): string {
  const words = ['svc-harness', 'run', ...(p.context ?? []), '--only', `property:${p.name}`, '--seed', String(p.seed)];
  if (p.path) words.push('--property-path', p.path);
  if (p.path && p.replayPath) words.push('--property-replay-path', p.replayPath);
  return words.map(shellWord).join(' ');
}
