import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { applyKnownIssues, judgeKnown } from '../../src/known/apply-known-issues.js';
import { canonicalCaseId, type CaseIdCatalogue } from '../../src/known/case-ids.js';
import { parseKnownIssues } from '../../src/known/read-known-issues.js';
import type { CaseResult } from '../../src/results/model.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { renderJson } from '../../src/report/render-json.js';
import { sampleRun } from '../report/fixtures/sample-run.js';

const CATALOGUE: CaseIdCatalogue = { checks: ['RL-04', 'AU-01', 'ID-02'], scenarios: ['happy-flights'], properties: ['quote-lock'] };

function kase(id: string, verdict: CaseResult['verdict'], kind: CaseResult['kind'] = 'check'): CaseResult {
  return {
    id,
    kind,
    title: `title of ${id}`,
    area: kind === 'gate' ? 'load' : 'ratelimit',
    clause: 'SPEC §8',
    verdict,
    message: `message of ${id}`,
    evidence: [],
    startedAt: 0,
    durationMs: 5,
  };
}

function problem(text: string): string {
  try {
    parseKnownIssues(text, 'known.yaml', CATALOGUE);
  } catch (err) {
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).code).toBe('E_KNOWN_ISSUES_INVALID');
    expect((err as HarnessError).message).not.toContain('\n');
    return (err as HarnessError).message;
  }
  throw new Error('no error');
}

describe('a known-issues file', () => {
  it('reads a YAML list of {id, reason, until}, a check id in the registry spelling', () => {
    const list = parseKnownIssues(
      '- id: rl-04\n  reason: vendor ticket 12\n  until: 2031-01-31\n- {id: "gate:search.p95<200ms", reason: slow, until: 2031-02-01}\n',
      'known.yaml',
      CATALOGUE,
    );
    expect(list).toEqual([
      { id: 'RL-04', reason: 'vendor ticket 12', until: '2031-01-31' },
      { id: 'gate:search.p95<200ms', reason: 'slow', until: '2031-02-01' },
    ]);
  });

  it.each([
    ['load:window-limit:agency-load-001:read'],
    ['load:wallet:agency-alpha'],
    ['gate:baseline:search.p95'],
    ['scenario:happy-flights'],
    ['property:quote-lock'],
  ])('knows the id %s', (id) => {
    expect(canonicalCaseId(id, CATALOGUE)).toBe(id);
  });

  it.each([['RL-99'], ['scenario:no-such'], ['property:nope'], ['load:window-limit:a'], ['gate:p95 is low'], ['rl04']])('refuses the unknown id %s', (id) => {
    expect(problem(`- {id: "${id}", reason: r, until: 2031-01-01}`)).toMatch(/entry 1 names .* which is no case id/);
  });

  it('refuses bad YAML, a wrong shape, a missing reason, a date that is no day, and an id twice, each in one line', () => {
    expect(problem('- id: RL-04\n reason: [unclosed')).toMatch(/not valid YAML/);
    expect(problem('id: RL-04')).toMatch(/expected a YAML list/);
    expect(problem('- {id: RL-04, until: 2031-01-01}')).toMatch(/entry 1 \(RL-04\) needs a reason/);
    expect(problem('- {id: RL-04, reason: r, until: 2031-02-30}')).toMatch(/needs until: a date YYYY-MM-DD/);
    expect(problem('- {id: RL-04, reason: r, until: soon}')).toMatch(/needs until/);
    expect(problem('- {id: RL-04, reason: r, until: 2031-01-01}\n- {id: rl-04, reason: r, until: 2031-01-01}')).toMatch(/entry 2 names RL-04 again/);
    expect(problem('- {id: RL-04, reason: r, until: 2031-01-01, owner: me}')).toMatch(/unknown field\(s\) owner/);
  });
});

describe('a known-issues list applied to a run', () => {
  const list = [
    { id: 'RL-04', reason: 'ticket 12', until: '2031-01-31' },
    { id: 'AU-01', reason: 'old flake', until: '2031-01-31' },
    { id: 'ID-02', reason: 'replay bytes', until: '2020-06-30' },
  ];

  it('turns a listed failure into KNOWN through its until day, and fails as usual after it, saying the entry expired', () => {
    expect(judgeKnown(kase('RL-04', 'FAIL'), list, '2031-01-31')).toMatchObject({
      verdict: 'KNOWN',
      message: 'message of RL-04',
      known: { state: 'excused', reason: 'ticket 12', until: '2031-01-31', was: 'FAIL' },
    });
    const expired = judgeKnown(kase('RL-04', 'FAIL'), list, '2031-02-01');
    expect(expired).toMatchObject({ verdict: 'FAIL', known: { state: 'expired' } });
    expect(expired.message).toBe('message of RL-04 (its known-issues entry expired on 2031-01-31: ticket 12)');
  });

  it('names a listed case that passes as a WARN, and leaves an ERROR and unlisted cases alone', () => {
    expect(judgeKnown(kase('AU-01', 'PASS'), list, '2030-01-01')).toMatchObject({
      verdict: 'WARN',
      message: expect.stringMatching(/^AU-01 no longer fails: remove it from the known-issues list/),
    });
    expect(judgeKnown(kase('RL-04', 'ERROR'), list, '2030-01-01').verdict).toBe('ERROR');
    const other = kase('RL-01', 'FAIL');
    expect(judgeKnown(other, list, '2030-01-01')).toBe(other);
  });

  it('passes a suite whose only failure is known, and counts it', () => {
    const run = sampleRun({ cases: [kase('AU-01', 'PASS'), kase('RL-04', 'FAIL'), kase('RL-01', 'PASS')], verdict: 'FAIL' });
    const applied = applyKnownIssues(run, list, '2030-01-01');
    expect(applied.verdict).toBe('PASS');
    expect(applied.summary).toMatchObject({ PASS: 1, WARN: 1, KNOWN: 1, FAIL: 0, total: 3 });
    expect(applied.notes.at(-1)).toBe(
      'known issues: 3 listed; 1 failure(s) known (RL-04); 1 no longer fail(s): remove from the list (AU-01); 1 not in this run (ID-02)',
    );
    expect(applyKnownIssues(run, list, '2031-02-01').verdict).toBe('FAIL');
  });

  it('shows a known case with its reason and date in every report', () => {
    const run = applyKnownIssues(sampleRun({ cases: [kase('AU-01', 'PASS'), kase('RL-04', 'FAIL')] }), list, '2030-01-01');
    const junit = renderJunit(run);
    expect(junit).toContain('<skipped message="KNOWN (known issue until 2031-01-31: ticket 12): message of RL-04"/>');
    expect(junit).toMatch(/failures="0" errors="0" skipped="1"/);
    const md = renderMarkdown(run);
    expect(md).toContain('## Known issues');
    expect(md).toMatch(/\| `RL-04` \| \*\*KNOWN\*\* \| known issue until 2031-01-31: ticket 12 \| message of RL-04 \|/);
    expect(md).toContain('1 known');
    const page = renderHtml(run);
    expect(page).toContain('data-filter="KNOWN"');
    expect(page).toContain('<span class="known-note">known issue until 2031-01-31: ticket 12</span>');
    expect(page).toContain('<span>Known</span>');
    expect(page).toContain('<h2>Failures and known issues</h2>');
    const json = JSON.parse(renderJson(run)) as { cases: CaseResult[]; summary: Record<string, number> };
    expect(json.cases.find((c) => c.id === 'RL-04')?.known).toEqual({ reason: 'ticket 12', until: '2031-01-31', state: 'excused', was: 'FAIL' });
    expect(json.summary.KNOWN).toBe(1);
  });

  it('leaves the reports of a run without a list as they were: no Known filter, tile or count', () => {
    const page = renderHtml(sampleRun());
    expect(page).not.toContain('data-filter="KNOWN"');
    expect(page).not.toContain('<span>Known</span>');
    expect(renderMarkdown(sampleRun())).not.toMatch(/\bknown\b/);
  });
});
