import type { CaseResult } from '../results/model.js';
import type { CaseRunResult } from '../results/run-result.js';
import { cdata, xmlAttr } from './escape.js';
import { evidenceBlocks, exchangeIndex, replayOf, seconds } from './_internal/evidence.js';
import { groupByArea } from './_internal/order.js';
import { knownNote } from '../results/known-note.js';
import type { Exchange } from '../client/exchange.js';
import { seedWords } from './_internal/run-words.js';

/** Prefix of every testcase classname, so CI groups the harness's cases together. */
const JUNIT_CLASSNAME_PREFIX = 'svc-harness';

/**
 * Renders `junit.xml` in the dialect Jenkins, GitLab and GitHub test
 * reporters read: one `<testsuite>` per area, one `<testcase>` per case.
 * FAIL becomes `<failure>`, ERROR `<error>`, SKIP `<skipped>`; WARN passes
 * with its note in `<system-out>`. KNOWN becomes `<skipped>` with the
 * reason, date and what failed: CI readers know no excused failure, and a
 * skip is the one outcome they neither fail on nor count as passed, so the
 * case stays visible without breaking the build.
 */
export function renderJunit(result: CaseRunResult): string {
  const index = exchangeIndex(result);
  const groups = groupByArea(result.cases);
  const total = tally(result.cases, result.durationMs);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xmlAttr(`svc-harness ${result.runId}`)}" tests="${total.tests}" failures="${total.failures}" ` +
      `errors="${total.errors}" skipped="${total.skipped}" time="${seconds(result.durationMs)}" timestamp="${xmlAttr(junitTimestamp(Date.parse(result.startedAt)))}">`,
  );
  for (const g of groups) {
    const t = tally(g.cases, result.durationMs);
    const start = Math.min(...g.cases.map((c) => c.startedAt));
    out.push(
      `  <testsuite name="${xmlAttr(`${JUNIT_CLASSNAME_PREFIX}.${g.area}`)}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" ` +
        `skipped="${t.skipped}" time="${seconds(t.timeMs)}" timestamp="${xmlAttr(junitTimestamp(start))}">`,
    );
    out.push('    <properties>');
    for (const [name, value] of suiteProperties(result)) {
      out.push(`      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
    }
    out.push('    </properties>');
    for (const c of g.cases) out.push(...testcase(c, index));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** A case's JUnit name: stable across runs whatever the verdict, since CI history follows a case by it. A gate is named by its expression alone (`gate:rps>=500`). */
function junitCaseName(c: Pick<CaseResult, 'id' | 'kind' | 'title'>): string {
  return c.kind === 'gate' ? c.id : `${c.id} ${c.title}`;
}

function testcase(c: CaseResult, index: Map<string, Exchange>): string[] {
  const open = `    <testcase classname="${xmlAttr(`${JUNIT_CLASSNAME_PREFIX}.${c.area}`)}" name="${xmlAttr(junitCaseName(c))}" time="${seconds(c.durationMs)}"`;
  switch (c.verdict) {
    case 'PASS':
      // A gate that held still says what it measured, in its unit, so CI shows how close it came.
      return c.kind === 'gate' ? [open + '>', `      <system-out>${cdata(c.message)}</system-out>`, '    </testcase>'] : [`${open}/>`];
    case 'WARN':
      return [open + '>', `      <system-out>${cdata(`WARN: ${c.message}\n${caseText(c, index)}`)}</system-out>`, '    </testcase>'];
    case 'SKIP':
      return [open + '>', `      <skipped message="${xmlAttr(c.message)}"/>`, '    </testcase>'];
    case 'KNOWN':
      return [
        open + '>',
        `      <skipped message="${xmlAttr(`KNOWN (${knownNote(c) ?? 'known issue'}): ${c.message}`)}"/>`,
        `      <system-out>${cdata(caseText(c, index))}</system-out>`,
        '    </testcase>',
      ];
    case 'FAIL':
      return [
        open + '>',
        `      <failure message="${xmlAttr(c.message)}" type="${xmlAttr(`${c.kind}.FAIL`)}">${cdata(caseText(c, index))}</failure>`,
        '    </testcase>',
      ];
    case 'ERROR':
      return [
        open + '>',
        `      <error message="${xmlAttr(c.message)}" type="${xmlAttr(`${c.kind}.ERROR`)}">${cdata(caseText(c, index))}</error>`,
        '    </testcase>',
      ];
    default:
      // An unknown verdict from a newer producer: report it rather than pass it silently.
      return [open + '>', `      <error message="${xmlAttr(`unknown verdict ${String(c.verdict)}: ${c.message}`)}" type="unknown"/>`, '    </testcase>'];
  }
}

function caseText(c: CaseResult, index: Map<string, Exchange>): string {
  const known = knownNote(c);
  const lines = [c.message, ...(known !== undefined ? [`Known issues: ${known}`] : []), `Clause: ${c.clause}`];
  const replay = replayOf(c);
  if (replay) lines.push(`Replay: ${replay}`);
  for (const b of evidenceBlocks(c, index)) lines.push(`${b.title}:`, ...b.lines.map((l) => `  ${l}`));
  return lines.join('\n');
}

function suiteProperties(result: CaseRunResult): [string, string][] {
  return [
    ['runId', result.runId],
    ['seed', seedWords(result).seed],
    ['target', `${result.target.name} ${result.target.baseUrl}`],
    ['tool', `${result.tool.name} ${result.tool.version}`],
    ['verdict', result.verdict],
    ...(result.verdictReason !== undefined ? [['verdictReason', result.verdictReason] as [string, string]] : []),
  ];
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
}

/**
 * A suite's time is the wall time its cases spanned, not the sum of their
 * durations: a real-time run runs checks side by side, and a sum read
 * `ratelimit time=301.560` in a 13 s run. Cases that noted their wall start
 * give the span of their union; the others (durations alone) add theirs; no
 * suite takes longer than the run.
 */
function wallTimeMs(cases: readonly CaseResult[], runMs: number): number {
  const ms = (v: number): number => (Number.isFinite(v) ? Math.max(0, v) : 0);
  const walled = cases
    .filter((c) => typeof c.wallStartedAt === 'number' && Number.isFinite(c.wallStartedAt))
    .map((c) => [c.wallStartedAt!, c.wallStartedAt! + ms(c.durationMs)] as const)
    .sort((a, b) => a[0] - b[0]);
  let span = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of walled) {
    if (to <= end) continue;
    span += to - Math.max(from, end);
    end = to;
  }
  const rest = cases.filter((c) => !(typeof c.wallStartedAt === 'number' && Number.isFinite(c.wallStartedAt))).reduce((sum, c) => sum + ms(c.durationMs), 0);
  return Number.isFinite(runMs) && runMs > 0 ? Math.min(span + rest, runMs) : span + rest;
}

function tally(cases: readonly CaseResult[], runMs: number): Tally {
  const t: Tally = { tests: cases.length, failures: 0, errors: 0, skipped: 0, timeMs: wallTimeMs(cases, runMs) };
  for (const c of cases) {
    if (c.verdict === 'FAIL') t.failures += 1;
    else if (c.verdict === 'SKIP' || c.verdict === 'KNOWN') t.skipped += 1;
    else if (c.verdict !== 'PASS' && c.verdict !== 'WARN') t.errors += 1;
  }
  return t;
}

/** The JUnit schema's timestamp: ISO 8601 without zone or fraction (taken as UTC). */
function junitTimestamp(ms: number): string {
  const d = new Date(Number.isFinite(ms) ? ms : 0);
  return d.toISOString().slice(0, 19);
}
