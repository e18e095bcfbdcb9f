import type { Exchange } from '../../client/exchange.js';
import { html } from '../escape.js';
import { around, differingPairs, firstDifferingByte, jsonVerdict, lineDiff, type DifferingPair } from '../_internal/body-diff.js';
import { EVIDENCE_BODY_LIMIT } from './evidence.js';

function cut(body: string): string {
  const buf = Buffer.from(body, 'utf8');
  return buf.length <= EVIDENCE_BODY_LIMIT ? body : `${buf.subarray(0, EVIDENCE_BODY_LIMIT).toString('utf8')}\n… (cut; report.json has the whole body)`;
}

function side(title: string, x: DifferingPair['first']): string {
  const bytes = Buffer.byteLength(x.response.body, 'utf8');
  return `<div class="raw"><h4>${html(title)} · ${html(x.id)} · HTTP ${x.response.status} · ${bytes.toLocaleString('en')} bytes, as received</h4><pre>${html(cut(x.response.body))}</pre></div>`;
}

function pair(p: DifferingPair): string {
  const a = p.first.response.body;
  const b = p.second.response.body;
  const at = firstDifferingByte(a, b);
  const where =
    at === undefined ? '' : `<p>First difference at byte ${at} (counting from 0): original ${html(around(a, at))}, then ${html(around(b, at))}.</p>`;
  const verdict = jsonVerdict(a, b);
  const diff = lineDiff(a, b)
    .map((l) => `<span class="d${l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'eq'}">${html(`${l.op} ${l.text}`)}</span>`)
    .join('');
  return `<div class="comparison">
<div class="raw-pair">${side(`Original${p.first.label ? ` (${p.first.label})` : ''}`, p.first)}${side(`Again${p.second.label ? ` (${p.second.label})` : ''}`, p.second)}</div>
${where}${verdict ? `<p>${html(verdict)}</p>` : ''}
<h4>Line diff of the raw bodies (− original, + again)</h4><pre class="diff">${diff}</pre>
</div>`;
}

/**
 * For a case whose exchanges sent a write again (or whose run sent it
 * before) and got different bodies (a replay that should be byte-identical), both raw bodies exactly
 * as received side by side, where they first differ, and a line diff.
 * Pretty-printing would hide a difference in formatting, so nothing here is
 * reformatted.
 */
export function renderBodyComparison(evidence: readonly Exchange[], run: readonly Exchange[] = evidence, named?: { original: string; replay: string }): string {
  const pairs = differingPairs(evidence, run, named).slice(0, 3);
  return pairs.map(pair).join('\n');
}
