import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { filesUnder } from './secret-grep.js';

/*
 * A scanner of secrets that shares nothing with the redactor: each form is
 * decoded here on its own terms (regular expressions over the whole text,
 * no position maps), so a gap in the redactor's views is not repeated here.
 */

/** Text as latin1 of its UTF-8 bytes: what every decoded form is compared in. */
function asBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

const htmlEntities = (s: string): string =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const jsonEscapes = (s: string): string =>
  s.replace(/\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])/g, (_, u: string | undefined, c: string | undefined) =>
    u !== undefined
      ? String.fromCharCode(parseInt(u, 16))
      : ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c!]!,
  );

/** Percent escapes decoded byte by byte, on latin1 byte text. */
const percentBytes = (bytes: string): string => bytes.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The base64/base64url runs of `bytes` (line breaks, escaped or real, removed). */
function base64Runs(bytes: string): string[] {
  return bytes.replace(/\\r\\n|\\n|\r?\n/g, '').match(/[A-Za-z0-9+/_-]{6,}/g) ?? [];
}

/** Every base64/base64url decoding of one run, at each start offset. */
function base64Decodings(run: string): string[] {
  const out: string[] = [];
  const std = run.replace(/-/g, '+').replace(/_/g, '/');
  for (let k = 0; k < 4; k++) {
    const part = std.slice(k);
    const whole = part.slice(0, part.length - (part.length % 4));
    out.push(Buffer.from(whole, 'base64').toString('latin1'));
    if (whole.length !== part.length) out.push(Buffer.from(`${part}${'='.repeat((4 - (part.length % 4)) % 4)}`, 'base64').toString('latin1'));
  }
  return out;
}

/** The hex runs of `bytes` (either case). */
function hexRuns(bytes: string): string[] {
  return bytes.match(/[0-9a-fA-F]{8,}/g) ?? [];
}

/** Every hex decoding of one run, at both offsets. */
function hexDecodings(run: string): string[] {
  const out: string[] = [];
  for (let k = 0; k < 2; k++) {
    const part = run.slice(k);
    out.push(Buffer.from(part.slice(0, part.length - (part.length % 2)), 'hex').toString('latin1'));
  }
  return out;
}

/** The text views of `bytes` (latin1): as is, JSON-unescaped, percent-decoded, HTML-unescaped, and their combinations. */
function textViews(bytes: string): string[] {
  const utf8 = Buffer.from(bytes, 'latin1').toString('utf8');
  const json = asBytes(jsonEscapes(utf8));
  const html = asBytes(htmlEntities(utf8));
  return [bytes, json, percentBytes(bytes), percentBytes(json), html, asBytes(jsonEscapes(htmlEntities(utf8))), percentBytes(html)];
}

/** Decoded text worth a second look: nearly all printable (a wrong offset decodes to noise). */
function printable(bytes: string): boolean {
  if (bytes.length < 4) return false;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 9 || c === 10 || c === 13) n++;
  }
  return n >= bytes.length * 0.8;
}

/**
 * The forms in which each needle shows in `text`, in the order first met: the text views, and each base64 or hex
 * decoding of them with its own views once more. A report repeats the same answers many times, so a run (or a decoded
 * text) met again under the same form is not decoded again: it would only add the forms it added the first time.
 */
function formsOf(text: string, needles: readonly string[]): Set<string>[] {
  const found = needles.map(() => new Set<string>());
  const names = ['plain', 'json', 'percent', 'json+percent', 'html', 'html+json', 'html+percent'];
  const check = (form: string, t: string): void => {
    needles.forEach((needle, i) => {
      if (t.includes(needle)) found[i]!.add(form);
    });
  };
  const done = new Set<string>();
  const look = (bytes: string, prefix: string, depth: number): void => {
    const views = textViews(bytes);
    views.forEach((v, i) => check(`${prefix}${names[i]}`, v));
    // The runs met so far in these views: one met again (in another view, or further on) decodes to the same texts.
    const seen = { base64: new Set<string>(), hex: new Set<string>() };
    const fresh = (runs: string[], met: Set<string>): string[] => runs.filter((r) => !met.has(r) && Boolean(met.add(r)));
    for (const v of new Set(views)) {
      for (const [form, decode, runs] of [
        ['base64', base64Decodings, fresh(base64Runs(v), seen.base64)],
        ['hex', hexDecodings, fresh(hexRuns(v), seen.hex)],
      ] as const) {
        for (const run of runs) {
          for (const d of decode(run)) {
            const key = `${prefix}${form}\0${d}`;
            if (done.has(key)) continue;
            done.add(key);
            check(`${prefix}${form}`, d);
            if (depth === 0 && printable(d)) look(d, `${prefix}${form}>`, 1);
          }
        }
      }
    }
  };
  look(asBytes(text), '', 0);
  return found;
}

/** The forms in which `secret` shows in `text`, nested once inside base64 or hex. */
export function secretFormsIn(text: string, secret: string): string[] {
  return [...formsOf(text, [asBytes(secret)])[0]!];
}

/** `where: secret #i as form` for every secret found in `text`. */
export function secretsIn(text: string, secrets: readonly string[], where: string): string[] {
  return formsOf(text, secrets.map(asBytes)).flatMap((forms, i) => [...forms].map((form) => `${where}: secret #${i} as ${form}`));
}

/** Every secret found in any file under `dir`. */
export async function secretsUnder(dir: string, secrets: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of await filesUnder(dir)) out.push(...secretsIn(await readFile(file, 'utf8'), secrets, path.relative(dir, file)));
  return out;
}
