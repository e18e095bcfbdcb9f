import type { Exchange } from '../../client/exchange.js';
import type { CaseResult } from '../../results/model.js';
import { html } from '../escape.js';
import { statusColour } from './palette.js';

/** Bodies longer than this (UTF-8 bytes) are cut in the page; report.json keeps them whole (up to the capture limit). */
export const EVIDENCE_BODY_LIMIT = 4096;

/** Pretty-prints JSON bodies (unless `pretty` is false) and cuts long ones at a character boundary under the byte limit. */
export function formatBody(body: string, limit = EVIDENCE_BODY_LIMIT, pretty = true): { text: string; truncated?: string } {
  let text = body;
  const trimmed = body.trim();
  if (pretty && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
    try {
      text = JSON.stringify(JSON.parse(trimmed), null, 2);
    } catch {
      // Not JSON after all: show it as sent.
    }
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text };
  let cut = '';
  let used = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (used + n > limit) break;
    cut += ch;
    used += n;
  }
  return { text: cut, truncated: `Truncated: showing ${used.toLocaleString('en')} of ${bytes.toLocaleString('en')} bytes; report.json has the whole body.` };
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function block(title: string, content: string, truncated?: string): string {
  if (content === '') return '';
  return `<h4>${html(title)}</h4><pre>${html(content)}</pre>${truncated ? `<div class="trunc">${html(truncated)}</div>` : ''}`;
}

/**
 * The response body exactly as received (a replay that differs only in
 * formatting must look different), with a pretty-printed view on demand
 * when that reads better.
 */
function responseBody(body: string, pretty: string, note: string | undefined): string {
  const raw = formatBody(body, EVIDENCE_BODY_LIMIT, false);
  const rawBlock = block('Response body, as received', raw.text, note);
  if (pretty === raw.text || rawBlock === '') return rawBlock;
  return `${rawBlock}<details class="pretty"><summary>pretty-printed</summary><pre>${html(pretty)}</pre></details>`;
}

/** One exchange: request line, headers and body, then response status, headers and body. */
export function renderExchange(x: Exchange): string {
  const reqBody = x.request.body !== undefined ? formatBody(x.request.body) : undefined;
  const status = x.response
    ? `<span class="status" style="color:${statusColour(x.response.status)}">${x.response.status}</span>`
    : `<span class="status" style="color:#cf222e">no response</span>`;
  const parts = [
    `<div class="exchange"><div class="exchange-head"><span>${html(x.id)}</span><b>${html(x.request.method)}</b><span>${html(x.request.url)}</span>→ ${status}<span class="muted">${Math.round(x.durationMs)} ms</span>${x.label ? `<span class="label">${html(x.label)}</span>` : ''}</div>`,
    block('Request headers', headerLines(x.request.headers)),
    reqBody ? block('Request body', reqBody.text, reqBody.truncated) : '',
  ];
  if (x.response) {
    const resBody = formatBody(x.response.body);
    // A body cut at capture: report.json holds only the prefix, so say what the whole was.
    const r = x.response;
    const kept = r.truncated
      ? `The harness kept the first ${Buffer.byteLength(r.body, 'utf8').toLocaleString('en')} bytes of a ${r.bytes !== undefined ? `${r.bytes.toLocaleString('en')}-byte` : 'larger'} body${r.sha256 ? ` (SHA-256 ${r.sha256})` : ''}.`
      : undefined;
    const note = kept ? `${resBody.truncated ? `${resBody.truncated.replace(/;.*$/, '.')} ` : ''}${kept}` : resBody.truncated;
    parts.push(block('Response headers', headerLines(r.headers)), responseBody(r.body, resBody.text, note));
  }
  if (x.error) parts.push(block('Transport error', x.error));
  parts.push('</div>');
  return parts.join('');
}

/** Evidence on demand: a closed `<details>` with the case's exchanges and structured details. */
export function renderCaseEvidence(c: CaseResult, index: Map<string, Exchange>): string {
  const hasDetails = c.details !== undefined && Object.keys(c.details).length > 0;
  if (c.evidence.length === 0 && !hasDetails) return '';
  const label = [c.evidence.length > 0 ? `${c.evidence.length} exchange${c.evidence.length === 1 ? '' : 's'}` : '', hasDetails ? 'details' : '']
    .filter(Boolean)
    .join(' + ');
  const items = c.evidence.map((id) => {
    const x = index.get(id);
    return x
      ? renderExchange(x)
      : `<div class="exchange"><div class="exchange-head"><span>${html(id)}</span><span class="muted">exchange not recorded</span></div></div>`;
  });
  const details = hasDetails ? `<div class="exchange case-details"><h4>Details</h4><pre>${html(formatBody(safeJson(c.details)).text)}</pre></div>` : '';
  return `<details class="evidence"><summary>Evidence: ${html(label)}</summary>${details}${items.join('')}</details>`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? '';
  } catch {
    return String(value);
  }
}
