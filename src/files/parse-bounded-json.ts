import { HarnessError } from '../errors/harness-error.js';

/** Bounds of {@link parseBoundedJson}. */
interface JsonBounds {
  /** Most values (objects, arrays, and the items and members in them) the document may hold. */
  maxValues: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** What the file is, for the message. @defaultValue `'file'` */
  what?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/**
 * Parses JSON read from a user's file after one pass over its bytes that
 * counts its values and nesting, so that a file within its size cap still
 * cannot make the parser build hundreds of megabytes of tiny values (32 MiB
 * of `[0,0,…]` is 16 million of them) or nest deeper than anything the
 * harness writes. A refusal or a syntax error is an E_FILE_UNREADABLE naming
 * `file`.
 */
export function parseBoundedJson(bytes: Uint8Array, file: string, bounds: JsonBounds): unknown {
  const what = bounds.what ?? 'file';
  const refuse = (why: string, cause?: unknown): HarnessError =>
    new HarnessError('E_FILE_UNREADABLE', `cannot read ${what} ${file}: ${why}`, cause !== undefined ? { cause } : undefined);
  let values = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i += 1;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      values += 1;
      if (++depth > bounds.maxDepth) throw refuse(`it nests arrays and objects deeper than ${bounds.maxDepth} levels`);
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth -= 1;
    else if (b === COMMA) values += 1;
    else continue;
    if (values > bounds.maxValues) throw refuse(`it holds more than ${bounds.maxValues} values`);
  }
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (err) {
    throw refuse(`it is not valid JSON${whereSyntaxBreaks(err)}`, err);
  }
}

/**
 * Where JSON.parse stopped, as ` (at byte N)`, or nothing. V8's message also
 * quotes the text around that place (`Unexpected token 'r', "root:x:0:0"…`),
 * and the file may be anything (`/etc/passwd`): only the position is kept.
 */
function whereSyntaxBreaks(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const at = /position (\d+)/.exec(message);
  if (at) return ` (at character ${at[1]})`;
  return /end of JSON input/.test(message) ? ' (it ends early)' : '';
}
