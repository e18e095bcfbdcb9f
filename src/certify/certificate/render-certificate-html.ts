import { html } from '../../report/escape.js';
import { verdictBadge } from '../../report/html/palette.js';
import { renderLayout } from '../../report/html/layout.js';
import type { Certificate } from './types.js';

const EXTRA_STYLES = `
.cert-meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;font-size:13px;margin-top:10px}
.cert-meta dt{color:var(--muted)}.cert-meta dd{margin:0;font-weight:600;word-break:break-all}
table.hashes td.h{font-family:var(--mono);font-size:12px;word-break:break-all}
.req{font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.5px}
.rule{margin-top:16px}
.unsigned{margin-top:12px;padding:8px 12px;border-left:4px solid var(--warn)}
.practice{border:2px dashed var(--warn);color:var(--warn);font-weight:700;padding:10px 14px;margin:12px 0;border-radius:6px;font-size:15px}
.verdict .practice-tag{font-size:18px;letter-spacing:3px;margin-bottom:4px}
`;

/** What an unsigned certificate says of itself: its hashes show it is intact, never who wrote it. */
const UNSIGNED_NOTE = `<p class="unsigned" data-signed="no"><strong>Not signed.</strong> This certificate carries no signature: anyone can write a folder like this one, with matching hashes. Only a certificate signed by a key you trust, checked with <code>svc-harness verify-certificate &lt;folder&gt; --public-key &lt;that key&gt;</code>, shows who issued it.</p>`;

function meta(rows: Array<[string, string]>): string {
  return `<dl class="cert-meta">${rows.map(([k, v]) => `<dt>${html(k)}</dt><dd>${html(v)}</dd>`).join('')}</dl>`;
}

/** The client as the agency named it, for the banner: name and version, either alone. */
function clientLabel(c: Certificate): string | undefined {
  const { name, version } = c.client ?? {};
  if (name === undefined && version === undefined) return undefined;
  return [name ?? '(unnamed client)', version !== undefined ? `version ${version}` : undefined].filter(Boolean).join(', ');
}

/**
 * The certificate as a page a person can read: granted or refused banner,
 * the tests, and the hash of every file. A practice certificate (earned
 * against the bundled mock) says so in its banner, its title and a band
 * above the tests, and its verdict is not drawn in a pass's green.
 */
export function renderCertificateHtml(c: Certificate): string {
  const state = c.granted ? 'GRANTED' : 'REFUSED';
  const practice = c.practice !== undefined;
  const client = clientLabel(c);
  const sub = c.granted
    ? `${c.summary.PASS} of ${c.summary.total} tests passed${c.skipped.length > 0 ? `, ${c.skipped.length} not run` : ''}`
    : `refused by ${c.refused_by.join(', ')}`;
  const target = Object.entries(c.target).map(([k, v]): [string, string] => [`Target ${k}`, String(v)]);
  const banner = `<section class="banner">
<div class="verdict verdict-${practice ? 'inconclusive' : c.granted ? 'pass' : 'fail'}">${practice ? '<span class="practice-tag">PRACTICE</span>' : ''}<strong>${state}</strong><span>${html(practice ? `${sub}, against the bundled mock` : sub)}</span></div>
<div class="run">
<h1>${html(c.plan.title)} <span class="muted">· ${html(c.plan.id)} ${html(c.plan.version)}</span></h1>
${meta([
  ['Agency', c.agency],
  ...(client !== undefined ? [['Client', client] as [string, string]] : []),
  ['Kind', c.kind === 'service' ? 'agency credentials against a service' : "agency's client graded by the mock"],
  ...target,
  ['Started', c.started_at],
  ['Finished', c.finished_at],
  ['Harness', `${c.harness.name} ${c.harness.version}`],
  ['Signed', c.signing ? `${c.signing.algorithm}, public key SHA-256 ${c.signing.public_key_sha256}` : 'no: nothing shows who issued this certificate'],
])}
</div>
</section>
${c.signing ? '' : UNSIGNED_NOTE}
${practice ? `<p class="practice">PRACTICE RUN: ${html(c.practice!)}.</p>` : ''}
<p class="rule muted">Rule: ${html(c.rule)}.${c.skipped.length > 0 ? ` Not run: <b>${html(c.skipped.join(', '))}</b>.` : ''}</p>
${c.notes.length > 0 ? `<ul class="notes">${c.notes.map((n) => `<li>${html(n)}</li>`).join('')}</ul>` : ''}`;

  const rows = c.tests
    .map(
      (t) => `<tr class="${t.verdict === 'FAIL' || t.verdict === 'ERROR' ? 'failing' : ''}" data-verdict="${html(t.verdict)}">
<td>${verdictBadge(t.verdict)}</td>
<td><span class="case-id">${html(t.id)}</span><br><span class="req">${t.required ? 'required' : 'when applicable'}</span></td>
<td>${html(t.title)}${t.clause ? `<br><span class="muted">${html(t.clause)}</span>` : ''}</td>
<td class="msg">${html(t.message)}</td>
<td>${t.evidence.map((e) => `<code>${html(e)}</code>`).join('<br>')}</td>
</tr>`,
    )
    .join('\n');
  const tests = `<h2>Tests</h2>
<table class="cases"><colgroup><col class="c-v"><col class="c-id"><col class="c-title"><col><col style="width:260px"></colgroup>
<thead><tr><th>Verdict</th><th>Test</th><th>Title</th><th>Why</th><th>Evidence</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;

  const hashes = `<h2>Files and their SHA-256</h2>
<table class="cases hashes"><colgroup><col style="width:34%"><col><col style="width:90px"></colgroup>
<thead><tr><th>File</th><th>SHA-256</th><th>Bytes</th></tr></thead>
<tbody>
${c.files.map((f) => `<tr><td><code>${html(f.file)}</code></td><td class="h">${html(f.sha256)}</td><td>${f.bytes}</td></tr>`).join('\n')}
</tbody></table>
<footer>Check this folder with <code>svc-harness verify-certificate &lt;folder&gt; --public-key &lt;signer's key&gt;</code>: it recomputes every hash above and the signature over certificate.json. This page itself is listed in certificate.json.</footer>`;
  return renderLayout(
    `${practice ? 'PRACTICE ' : ''}${state}: ${c.plan.id} ${c.plan.version} for ${c.agency}`,
    `<style>${EXTRA_STYLES}</style>\n${banner}\n${tests}\n${hashes}`,
  );
}
