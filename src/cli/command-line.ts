/** Characters a POSIX shell takes literally in a word: anything else is quoted. */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word quoted for a POSIX shell: left bare when safe, else in single quotes (a quote inside written `'\''`). */
export function shellWord(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line of this process as reports record it, every argument
 * quoted for a POSIX shell so that pasting it runs the same command
 * (`--threshold 'search.p95<200ms'`, not a redirection from a file `200ms`).
 */
export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  return ['svc-harness', ...argv].map(shellWord).join(' ');
}
