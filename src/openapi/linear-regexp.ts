import { RE2JS } from 're2js';
import { UnusableSchemaError } from './unusable-schema.js';

/** What Ajv calls a regular expression engine (its `code.regExp` option). */
interface RegExpEngine {
  (pattern: string, flags: string): { test(text: string): boolean };
  /** How standalone code would name the engine; Ajv reads it, the harness never generates standalone code. */
  code: string;
}

/**
 * ECMAScript escapes RE2 spells otherwise: `\uXXXX` and `\u{X…}` are
 * `\x{…}` to RE2, and `\/` (common in documents, from regex literals) is a
 * plain `/`.
 */
function toRe2Syntax(pattern: string): string {
  return pattern.replace(/\\(\\|u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|\/)/g, (all, _esc: string, braced?: string, four?: string) => {
    if (braced !== undefined) return `\\x{${braced}}`;
    if (four !== undefined) return `\\x{${four}}`;
    if (all === '\\/') return '/';
    return all;
  });
}

/**
 * The schemas' `pattern` and `patternProperties` engine: RE2 (re2js, in plain
 * JavaScript), which matches in time linear in the text. A document's pattern
 * such as `^(qt_)?([A-Za-z0-9_.~-]+)+!$` takes seconds per short string, and
 * exponentially longer per character, on the backtracking `RegExp`; here it
 * takes microseconds. A pattern RE2 cannot evaluate (a back-reference, a
 * look-around) is an {@link UnusableSchemaError} naming it: judging with
 * it could hang the run.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(toRe2Syntax(pattern));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new UnusableSchemaError(`pattern ${JSON.stringify(pattern)} cannot be evaluated in linear time (${why})`);
    }
    // Ajv keeps one compiled pattern per distinct toString().
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'linearRegExp' },
);
