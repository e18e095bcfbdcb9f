/**
 * The fenced blocks of the README and of docs/*.md, read as the docs test runs them.
 *
 * A `sh` (or `bash`) block is a command a user runs; `test/docs/doc-blocks.test.ts` runs each one.
 * HTML comments on the lines right before a block say how, and are not shown:
 *
 * - `<!-- no-run: REASON -->`: not run, for the reason given (it needs a real service, Kubernetes…);
 * - `<!-- exit: 1 -->`, `<!-- exit: 0 or 99 -->`: the exit status it ends with (0 when not said);
 * - `<!-- until-stopped -->`: a server, stopped with Ctrl-C once it has printed its output's key lines;
 * - `<!-- continued -->`: runs after the block before it on the page, in the same folder.
 *
 * A `text` block is the output of the nearest `sh` block before it, and is checked for its key
 * lines: every line but `…`, or with `<!-- key lines: PREFIX | PREFIX -->` the lines starting with
 * one of the prefixes. In a key line, `…` stands for anything, every number for any number, a
 * duration in ms or s for either, an id (a word of ten characters or more, mixing letters and
 * digits) for any id, a run of spaces for any run of spaces, ✓ and ✗ for either (a gate measures
 * the machine); the rest must be printed as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The pages whose blocks are run: the README and every page of docs/. */
export function docPages(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export interface DocBlock {
  /** The page, relative to the repository (`README.md`, `docs/load-and-gates.md`). */
  file: string;
  /** Line of the opening fence, from 1. */
  line: number;
  lang: string;
  code: string;
  /** The HTML comments right before the block: `no-run`, `exit`, `until-stopped`, `continued`, `key lines`. */
  directives: Map<string, string>;
}

const FENCE = /^(\s*)```(\S*).*$/;
const DIRECTIVE = /^\s*<!--\s*([a-z][a-z -]*?)\s*(?::\s*(.*?))?\s*-->\s*$/;

export function parseBlocks(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let pending = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const directive = DIRECTIVE.exec(lines[i]!);
    if (directive) {
      pending.set(directive[1]!, directive[2] ?? '');
      continue;
    }
    const fence = FENCE.exec(lines[i]!);
    if (!fence) {
      pending = new Map();
      continue;
    }
    const indent = fence[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    blocks.push({ file, line: i + 1, lang: fence[2]!, code: body.join('\n'), directives: pending });
    pending = new Map();
    i = j;
  }
  return blocks;
}

export const SHELL = new Set(['sh', 'bash']);

/** A command block the docs test runs, with the output blocks that follow it. */
export interface Runnable {
  block: DocBlock;
  /** Exit statuses it may end with. */
  exits: number[];
  untilStopped: boolean;
  /** Runs after the runnable before it on the same page, in its folder. */
  continued: boolean;
  outputs: { block: DocBlock; keys: string[] }[];
}

export interface PageBlocks {
  runnable: Runnable[];
  /** Shell blocks not run, with the reason each gives. */
  notRun: { block: DocBlock; reason: string }[];
  /** Problems in the page's markup: an output with no command before it, a prefix that selects no line. */
  problems: string[];
}

export function classify(blocks: DocBlock[]): PageBlocks {
  const result: PageBlocks = { runnable: [], notRun: [], problems: [] };
  let last: Runnable | undefined;
  for (const block of blocks) {
    const where = `${block.file}:${block.line}`;
    if (SHELL.has(block.lang)) {
      if (block.directives.has('no-run')) {
        const reason = block.directives.get('no-run')!;
        if (!reason) result.problems.push(`${where}: no-run without a reason`);
        result.notRun.push({ block, reason });
        last = undefined;
        continue;
      }
      const exits = (block.directives.get('exit') ?? '0').split(/\s*or\s*/).map(Number);
      if (exits.some((e) => !Number.isInteger(e))) result.problems.push(`${where}: exit must be numbers joined by "or"`);
      last = {
        block,
        exits,
        untilStopped: block.directives.has('until-stopped'),
        continued: block.directives.has('continued'),
        outputs: [],
      };
      if (last.continued && result.runnable.length === 0) result.problems.push(`${where}: continued, but no block runs before it`);
      result.runnable.push(last);
    } else if (block.lang === 'text') {
      if (!last) {
        result.problems.push(`${where}: an output block with no command run before it`);
        continue;
      }
      const keys = keyLines(block);
      if (keys.length === 0) result.problems.push(`${where}: no key line selected`);
      const prefixes = splitPrefixes(block.directives.get('key lines'));
      for (const p of prefixes) if (!block.code.split('\n').some((l) => l.trim().startsWith(p))) result.problems.push(`${where}: no line starts with "${p}"`);
      last.outputs.push({ block, keys });
    }
  }
  return result;
}

function splitPrefixes(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(' | ').map((p) => p.trim());
}

/** The lines of an output block that must be printed. */
export function keyLines(block: DocBlock): string[] {
  const lines = block.code
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== '…');
  const prefixes = splitPrefixes(block.directives.get('key lines'));
  return prefixes.length === 0 ? lines : lines.filter((l) => prefixes.some((p) => l.startsWith(p)));
}

const ID = /[A-Za-z0-9_-]{10,}/g;
const NUMBER = String.raw`\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
/** Any number, its thousands apart or not: `p50 318.46` may be read as one number or two, either way it matches `p50 66.30`. */
const ANY_NUMBER = String.raw`\d[\d.,]*(?:[ \u00a0\u202f]\d[\d.,]*)*`;

/** The pattern a key line stands for (see the head of this file). */
export function linePattern(line: string): RegExp {
  // Ids first (marked with a character no doc holds), then the rest token by token.
  const marked = line
    .trim()
    .replace(ID, (w) => (/\d/.test(w) && /[A-Za-z]/.test(w) ? '\u0001' : w))
    .replace(/(\d) (?:ms|s)\b/g, '$1 \u0002');
  let re = '';
  for (const [token] of marked.matchAll(new RegExp(String.raw`…|\u0001|\u0002|${NUMBER}|\s+|.`, 'gu'))) {
    if (token === '…') re += '.*';
    else if (token === '\u0002') re += '(?:ms|s)';
    else if (token === '\u0001') re += '[A-Za-z0-9_-]+';
    else if (/^\d/.test(token)) re += ANY_NUMBER;
    else if (/^\s+$/.test(token)) re += '\\s+';
    else if (token === '✓' || token === '✗') re += '[✓✗]';
    else re += token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u');
}

/** The key lines no line of the output matches. */
export function missingKeyLines(keys: string[], output: string): string[] {
  const printed = output.split('\n').map((l) => l.trim());
  return keys.filter((k) => {
    const pattern = linePattern(k);
    return !printed.some((l) => pattern.test(l));
  });
}

/** Every block of every page, classified. */
export function allPages(): Map<string, PageBlocks> {
  return new Map(docPages().map((f) => [f, classify(parseBlocks(f))]));
}
