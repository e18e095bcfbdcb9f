#!/usr/bin/env node
// Turns the logs of the shards of load-indexed-job.yaml back into report files:
//   kubectl logs -l job-name=svc-harness-load --tail=-1 --max-log-requests 16 --prefix > shards.log
//   node examples/k8s/extract-reports.mjs shards.log reports/k8s
// writes reports/k8s/shard-<i>/report.json for every shard found in the log
// (shard.mjs printed each between marker lines), ready for
//   svc-harness report merge reports/k8s/shard-*/report.json -o reports/k8s/merged
// Lines of other pods or tools in between are skipped; with --prefix the
// lines of pods printed at the same time are told apart by their prefix.
//
// A log is taken whole or not at all: a report cut off, a label that is not
// i/N, a shard printed twice, base64 or gzip that does not decode, a report
// that inflates past MAX_REPORT_BYTES or is not a JSON object is one line on
// stderr each, and then nothing is written (exit 2). Plain Node, no dependency.
import { isUtf8 } from 'node:buffer';
import { createReadStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const BEGIN = '----- svc-harness report.json (gzip, base64) shard';
const END = '----- end of svc-harness report.json';

/** Largest report.json taken out of a log: the most `svc-harness report merge` reads of a shard. */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;
/** Most JSON values and deepest nesting of a report (report merge's bounds): an hour's load holds about 100 000 values. */
const MAX_VALUES = 1_000_000;
const MAX_DEPTH = 64;
/** Most shards of a load (report merge's bound). */
const MAX_SHARDS = 1024;
/** A longer line is no marker and no line of base64 (shard.mjs prints 76 characters): it is skipped, unread. */
const MAX_LINE = 64 * 1024;
/** Problems kept to print; more are counted. */
const MAX_PROBLEMS = 50;

const PREFIX = /^\[([^\]]*)\] /;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const LABEL = /^([1-9]\d{0,3})\/([1-9]\d{0,3})$/;

/** A log refused: `problems` holds one line per bad block (the first MAX_PROBLEMS of `count`). */
export class BadLogError extends Error {
  constructor(problems, count) {
    super(problems.join('\n'));
    this.name = 'BadLogError';
    this.problems = problems;
    this.count = count;
    this.exitCode = 2;
  }
}

/** `text` quoted, its control and direction characters escaped, cut at 120 characters. */
function quoted(text) {
  const cut = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return JSON.stringify(cut).replace(/[\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` fit for one line of a message: as it is when plain, else quoted. */
const shown = (text) => (/^[\w./:@-]{1,120}$/.test(text) ? text : quoted(text));

/** A message on one line, whatever it quotes. */
function oneLine(text) {
  const flat = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function sizeText(bytes) {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** Counts the values and nesting of JSON text before JSON.parse builds it, as the harness reads reports; a reason to refuse, or undefined. */
function jsonBoundsBroken(text) {
  let values = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      values += 1;
      if (++depth > MAX_DEPTH) return `nests arrays and objects deeper than ${MAX_DEPTH} levels`;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x2c) values += 1;
    else continue;
    if (values > MAX_VALUES) return `holds more than ${MAX_VALUES} values`;
  }
  return undefined;
}

/** The text of the report in `base64`, or why it is refused. */
function decode(base64, maxBytes) {
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) return { problem: 'its base64 is broken (a line changed or lost?)' };
  let bytes;
  try {
    bytes = gunzipSync(Buffer.from(base64, 'base64'), { maxOutputLength: maxBytes });
  } catch (err) {
    if (err?.code === 'ERR_BUFFER_TOO_LARGE') return { problem: `its report inflates to more than the ${sizeText(maxBytes)} accepted (a decompression bomb?)` };
    return { problem: `its gzip data is broken (${err?.message ?? err})` };
  }
  if (!isUtf8(bytes)) return { problem: 'its report is not UTF-8 text' };
  const text = bytes.toString('utf8');
  const broken = jsonBoundsBroken(text);
  if (broken) return { problem: `its report ${broken}` };
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { problem: `its report is not JSON (${err?.message ?? err})` };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { problem: 'its report is not a JSON object' };
  return { text };
}

/**
 * Reads a log line by line (`line`, then `end`): each block between the
 * markers is collected apart for each `[pod/…/container] ` prefix, so pods
 * printing at the same time do not mix, and decoded at its end marker under
 * the cap `maxBytes`. `end` returns the reports by shard (i/N), in shard
 * order, or throws a BadLogError listing every bad block.
 */
export function reportExtractor({ maxBytes = MAX_REPORT_BYTES } = {}) {
  // Base64 of more than the gzip of any report of `maxBytes` (gzip grows incompressible data by well under 1/64).
  const maxBase64 = Math.ceil((maxBytes + maxBytes / 64 + 1024) / 3) * 4;
  const open = new Map();
  const byIndex = new Map();
  const reports = [];
  const problems = [];
  let count = 0;
  let n = 0;

  const place = (line, source, extra) => {
    const what = [source && shown(source), extra].filter(Boolean).join(', ');
    return `line ${line}${what ? ` (${what})` : ''}`;
  };
  const refuse = (block, why) => {
    block.refused = true;
    block.chunks = [];
    count += 1;
    if (problems.length < MAX_PROBLEMS) problems.push(oneLine(why));
  };
  const refuseBlock = (block, why) => refuse(block, `${place(block.line, block.source)}: shard ${block.label}: ${why}`);

  const begin = (source, label) => {
    const block = { source, line: n, label, chunks: [], length: 0, refused: false };
    const m = LABEL.exec(label);
    if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > MAX_SHARDS) {
      refuse(block, `${place(n, source)}: a report labelled ${quoted(label)}, not a shard i/N (1 ≤ i ≤ N ≤ ${MAX_SHARDS})`);
    } else {
      const index = Number(m[1]);
      const first = byIndex.get(index);
      if (first) {
        const as = first.label === label ? undefined : `shard ${first.label}`;
        refuse(
          block,
          `${place(n, source)}: shard ${label} again, after ${place(first.line, first.source, as)}: a shard prints its report once, so neither is taken`,
        );
      } else byIndex.set(index, block);
    }
    open.set(source, block);
  };

  const finish = (block) => {
    open.delete(block.source);
    if (block.refused) return;
    if (block.length > maxBase64) return refuseBlock(block, `its report is over the ${sizeText(maxBytes)} accepted (${block.length} characters of base64)`);
    const { text, problem } = decode(block.chunks.join(''), maxBytes);
    block.chunks = [];
    if (problem) return refuseBlock(block, problem);
    reports.push({ index: Number(LABEL.exec(block.label)[1]), label: block.label, text });
  };

  return {
    /** One line of the log (without its line break); undefined for a line too long to keep. */
    line(raw) {
      n += 1;
      if (raw === undefined || raw.length > MAX_LINE) return;
      const m = PREFIX.exec(raw);
      const source = m ? `${m[1]}` : '';
      const line = (m ? raw.slice(m[0].length) : raw).trim();
      const block = open.get(source);
      if (line.startsWith(BEGIN)) {
        if (block && !block.refused) {
          refuseBlock(block, `its report is cut off: another begins at line ${n} of its pod`);
          // It holds no report: the one after it may be the same shard's, printed whole.
          const index = Number(LABEL.exec(block.label)[1]);
          if (byIndex.get(index) === block) byIndex.delete(index);
        }
        begin(source, line.slice(BEGIN.length).trim());
      } else if (line === END) {
        if (block) finish(block);
        else refuse({}, `${place(n, source)}: an end marker with no report begun (was the log cut at its start? kubectl logs --tail=-1 keeps it whole)`);
      } else if (block && !block.refused && BASE64_LINE.test(line)) {
        block.length += line.length;
        if (block.length <= maxBase64) block.chunks.push(line);
        else block.chunks = [];
      }
    },
    /** The reports, once the log has ended. */
    end() {
      for (const block of open.values()) if (!block.refused) refuseBlock(block, 'its report is cut off: the log ends before its end marker');
      open.clear();
      if (count > 0) throw new BadLogError(problems, count);
      return new Map(reports.sort((a, b) => a.index - b.index).map((r) => [r.label, r.text]));
    },
  };
}

/** Every report in `log`, by shard (i/N), as the text of its report.json; a BadLogError when any block is bad. */
export function extractReports(log, options) {
  const extractor = reportExtractor(options);
  for (const line of log.split('\n')) extractor.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  return extractor.end();
}

/** The same from a file, read as a stream: a log of any size, in the memory of its reports. */
export async function extractReportsFromFile(file, options) {
  const extractor = reportExtractor(options);
  let rest = '';
  let skipping = false;
  const feed = (line) => extractor.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const parts = chunk.split('\n');
    const last = parts.pop();
    for (const part of parts) {
      if (skipping) {
        // The end of a line too long to keep.
        skipping = false;
        extractor.line(undefined);
      } else {
        feed(rest + part);
        rest = '';
      }
    }
    if (!skipping) rest += last;
    if (rest.length > MAX_LINE) {
      skipping = true;
      rest = '';
    }
  }
  if (skipping) extractor.line(undefined);
  else if (rest !== '') feed(rest);
  return extractor.end();
}

const FS_ERRORS = { ENOENT: 'no such file', EISDIR: 'it is a folder', EACCES: 'permission denied', EPERM: 'permission denied', ENOSPC: 'no space left' };
const fsReason = (err) => FS_ERRORS[err?.code] ?? oneLine(err?.message ?? err);

/** Writes every report, or none: each to a .part file first, renamed once all are written. */
function writeReports(reports, outDir) {
  const written = [];
  try {
    for (const [shard, json] of reports) {
      const dir = join(outDir, `shard-${shard.split('/')[0]}`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'report.json');
      written.push({ file, shard });
      writeFileSync(`${file}.part`, json);
    }
    for (const { file } of written) renameSync(`${file}.part`, file);
  } catch (err) {
    for (const { file } of written) rmSync(`${file}.part`, { force: true });
    throw Object.assign(new Error(`cannot write the reports to ${outDir}: ${fsReason(err)}`), { exitCode: 2 });
  }
  return written;
}

async function main(argv) {
  const fail = (lines, exitCode) => {
    for (const line of lines) process.stderr.write(`extract-reports: ${oneLine(line)}\n`);
    process.exitCode = exitCode;
  };
  const [file, outDir = 'reports/k8s', ...more] = argv;
  if (!file || more.length > 0) return fail(['usage: extract-reports.mjs <kubectl logs output> [out dir]'], 2);
  let reports;
  try {
    reports = await extractReportsFromFile(file);
  } catch (err) {
    if (err instanceof BadLogError) {
      const left = err.count - err.problems.length;
      return fail(
        [
          ...err.problems.map((p) => `${file}: ${p}`),
          ...(left > 0 ? [`… and ${left} more`] : []),
          `nothing written to ${outDir}: ${err.count} ${err.count === 1 ? 'problem' : 'problems'} in ${file}`,
        ],
        2,
      );
    }
    if (typeof err?.code === 'string' && err.syscall) return fail([`cannot read ${file}: ${fsReason(err)}`], 2);
    throw err;
  }
  if (reports.size === 0) return fail([`no shard report found in ${file}`], 2);
  try {
    for (const { file: written, shard } of writeReports(reports, outDir)) process.stdout.write(`${written} (shard ${shard})\n`);
  } catch (err) {
    if (err.exitCode) return fail([err.message], err.exitCode);
    throw err;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`extract-reports: internal error: ${oneLine(err?.message ?? err)}\n`);
    process.exitCode = 70;
  });
}
