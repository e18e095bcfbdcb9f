import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The forms in which `secret` shows in `text`: plain, URL-encoded,
 * JSON-escaped, and inside any base64 or base64url run (each run decoded, at
 * any alignment). Written apart from the redactor so it judges it.
 */
export function secretLeaks(text: string, secret: string): string[] {
  const found = new Set<string>();
  if (text.includes(secret)) found.add('plain');
  if (text.includes(encodeURIComponent(secret))) found.add('URL-encoded');
  if (text.includes(JSON.stringify(secret).slice(1, -1))) found.add('JSON-escaped');
  for (const [name, enc] of [
    ['base64', 'base64'],
    ['base64url', 'base64url'],
  ] as const) {
    if (text.includes(Buffer.from(secret).toString(enc).replace(/=+$/, ''))) found.add(name);
    const runs = text.match(name === 'base64' ? /[A-Za-z0-9+/]{8,}/g : /[A-Za-z0-9_-]{8,}/g) ?? [];
    for (const run of runs) {
      // Every start offset, so a run that begins mid-quantum is still read right.
      for (let k = 0; k < 4; k++) {
        if (Buffer.from(run.slice(k), enc).toString('latin1').includes(secret)) found.add(name);
      }
    }
  }
  return [...found];
}

/** Every file under `dir`, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

/** `file: secret #i as form` for every leak of `secrets` in the files under `dir`. */
export async function leaksUnder(dir: string, secrets: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of await filesUnder(dir)) {
    const text = await readFile(file, 'utf8');
    secrets.forEach((s, i) => {
      for (const form of secretLeaks(text, s)) out.push(`${path.relative(dir, file)}: secret #${i} as ${form}`);
    });
  }
  return out;
}
