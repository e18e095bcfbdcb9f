import { parseAllDocuments } from 'yaml';

/** The shell words of one line: quotes removed, operators (`&`, `&&`, `|`, `;`, `>`, `2>`, …) as words of their own. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  let i = 0;
  const push = (): void => {
    if (cur !== undefined) words.push(cur);
    cur = undefined;
  };
  while (i < line.length) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur = (cur ?? '') + line.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? line.length : end + 1;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      cur = (cur ?? '') + line.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? line.length : end + 1;
    } else if (/\s/.test(c)) {
      push();
      i += 1;
    } else if (c === '#' && cur === undefined) {
      break;
    } else {
      const op = /^(?:&&|\|\||>>|2>&1|2>|[&|;<>()])/.exec(line.slice(i))?.[0];
      if (op && !(op === '2>' && cur !== undefined)) {
        push();
        words.push(op);
        i += op.length;
      } else {
        cur = (cur ?? '') + c;
        i += 1;
      }
    }
  }
  push();
  return words;
}

const OPERATORS = new Set(['&&', '||', '>>', '2>&1', '2>', '&', '|', ';', '<', '>', '(', ')']);

/** The CLI's entry point as the recipes call it with node (`node dist/src/cli/main.js …`), so that signals reach it. */
const ENTRY = /(^|\/)dist\/src\/cli\/main\.js$/;

/** The argument lists of every `svc-harness …` command in a shell script: `svc-harness`, `npx svc-harness`, `node_modules/.bin/svc-harness` or `node dist/src/cli/main.js`. */
export function commandsInScript(script: string): string[][] {
  const out: string[][] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const words = shellWords(line);
    words.forEach((w, i) => {
      let before = words[i - 1];
      if (ENTRY.test(w) && before === 'node') before = words[i - 2];
      else if (w !== 'svc-harness' && !w.endsWith('/svc-harness')) return;
      if (before !== undefined && before !== 'npx' && !OPERATORS.has(before)) return;
      const args: string[] = [];
      for (const a of words.slice(i + 1)) {
        if (OPERATORS.has(a)) break;
        args.push(a);
      }
      // A bare name (a workflow called svc-harness) is not a command.
      if (args.length > 0 || before === 'npx') out.push(args);
    });
  }
  return out;
}

/** Every `svc-harness` command line in the string values of a YAML file (all its documents), as argument lists. */
export function commandsInYaml(text: string): string[][] {
  const out: string[][] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(...commandsInScript(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`not YAML: ${doc.errors[0]!.message}`);
    walk(doc.toJS());
  }
  return out;
}
