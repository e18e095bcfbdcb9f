/**
 * True when the flow collections (`[…]`, `{…}`) of a JSON or YAML text nest
 * deeper than `max`. YAML parsers recurse per level and keep a token per
 * bracket, so a file of a million `[` costs hundreds of megabytes and ends in
 * a stack overflow; this scan costs one pass and no memory, and lets a reader
 * refuse such a file before parsing it. Quoted strings and comments are
 * skipped; a bracket inside a plain scalar counts, which can only make a
 * document look deeper than it is, never shallower.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let prev = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '[' || c === '{') {
      depth += 1;
      if (depth > max) return true;
    } else if (c === ']' || c === '}') {
      if (depth > 0) depth -= 1;
    } else if (c === '"') {
      // A JSON or YAML double-quoted string: backslash escapes.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'" && /[\s[{,:]/.test(prev)) {
      // A YAML single-quoted scalar starts only where a scalar may start; '' is its escaped quote.
      for (i++; i < text.length; i++) {
        if (text[i] === "'") {
          if (text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (c === '#' && /\s/.test(prev)) {
      while (i < text.length && text[i] !== '\n') i++;
    }
    prev = text[i] ?? '\n';
  }
  return false;
}
