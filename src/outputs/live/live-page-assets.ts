/*
 * The live page: static HTML and one script. The script reads frames
 * (live-frame.ts) from /events and fills the page; every figure shown carries
 * its exact value in `data-value`, so a test reads what a person sees.
 */

/** The page, with its style; the script comes from /live.js (the page's policy allows no inline script). */
export const LIVE_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc-harness load: live</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1f24; background: #fafbfc; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
h2 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
#state { font-weight: 600; }
#state.running { color: #0a5bd3; } #state.finished { color: #1a7f37; } #state.lost { color: #b35900; }
.tiles { display: flex; flex-wrap: wrap; gap: .6rem; }
.tile { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem .8rem; min-width: 8rem; }
.tile .v { font-size: 1.4rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.tile .k { color: #57606a; font-size: .8rem; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #d0d7de; padding: .25rem .6rem; text-align: right; font-variant-numeric: tabular-nums; }
th:first-child, td:first-child { text-align: left; }
.bar { display: inline-block; width: 10rem; height: .7rem; background: #eaeef2; border-radius: 3px; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #0a5bd3; border-radius: 3px; }
.bar.full > span { background: #cf222e; }
.held { color: #1a7f37; font-weight: 600; } .breached { color: #cf222e; font-weight: 600; }
.muted { color: #57606a; }
</style>
</head>
<body>
<h1>svc-harness load <span id="run" class="muted"></span></h1>
<div><span id="state" class="running">connecting…</span> <span id="elapsed" class="muted"></span></div>
<div class="tiles" id="tiles"></div>
<h2>Latency (ms) by outcome</h2>
<table id="latency"><thead><tr><th>outcome</th><th>count</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th></tr></thead><tbody></tbody></table>
<h2>Answers other than 2xx and 429, by status</h2>
<table id="statuses"><thead><tr><th>status</th><th>count</th></tr></thead><tbody></tbody></table>
<h2>Gates as they stand</h2>
<table id="gates"><thead><tr><th>gate</th><th>actual</th><th>state</th></tr></thead><tbody></tbody></table>
<h2>Buckets: admitted in the last window (to the latest answer) against the limit</h2>
<table id="buckets"><thead><tr><th>agency</th><th>bucket</th><th>used</th><th>limit</th><th></th></tr></thead><tbody></tbody></table>
<script src="/live.js"></script>
</body>
</html>
`;

/** The page's script: plain browser JavaScript, no build step. */
export const LIVE_PAGE_SCRIPT = `'use strict';
const $ = (id) => document.getElementById(id);
function cell(tag, text, key, value) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (key !== undefined) { c.dataset.key = key; c.dataset.value = String(value); }
  return c;
}
function row(tbody, cells) {
  const tr = document.createElement('tr');
  for (const c of cells) tr.append(c);
  tbody.append(tr);
  return tr;
}
const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pct = (v) => (100 * v).toFixed(2) + '%';
function tile(key, label, value, text) {
  const t = document.createElement('div');
  t.className = 'tile';
  const v = cell('div', text, key, value);
  v.className = 'v';
  const k = cell('div', label);
  k.className = 'k';
  t.append(v, k);
  return t;
}
let finished = false;
function render(f) {
  $('run').textContent = f.runId;
  $('state').textContent = f.state === 'finished' ? 'finished: the figures of the report' : 'running';
  $('state').className = f.state;
  document.body.dataset.state = f.state;
  $('elapsed').textContent = f.durationS.toFixed(1) + ' s';
  $('tiles').replaceChildren(
    tile('requests', 'requests', f.requests, String(f.requests)),
    tile('rps', 'requests / s over the run', f.rps, f.rps.toFixed(1)),
    tile('lastSecondRps', 'requests in the last second', f.lastSecondRps, String(f.lastSecondRps)),
    tile('rateLimitedRate', '429 share', f.rateLimitedRate, pct(f.rateLimitedRate)),
    tile('errors', 'errors', f.errors, String(f.errors)),
    tile('errorRate', 'error rate', f.errorRate, pct(f.errorRate)),
    ...(f.cutOff ? [tile('cutOff', 'cut off at the stop', f.cutOff, String(f.cutOff))] : []),
    ...(f.verdicts ? Object.entries(f.verdicts).map(([v, n]) => tile('verdicts.' + v, 'verdicts ' + v, n, String(n))) : []),
  );
  const lat = $('latency').tBodies[0];
  lat.replaceChildren();
  for (const l of f.latency)
    row(lat, [cell('td', l.outcome), cell('td', String(l.count), 'latency.' + l.outcome + '.count', l.count),
      ...['p50', 'p90', 'p95', 'p99', 'p99_9', 'max'].map((k) => cell('td', ms(l[k]), 'latency.' + l.outcome + '.' + k, l[k]))]);
  const st = $('statuses').tBodies[0];
  st.replaceChildren();
  for (const s of f.otherStatuses) row(st, [cell('td', s.status), cell('td', String(s.count), 'status.' + s.status, s.count)]);
  const gates = $('gates').tBodies[0];
  gates.replaceChildren();
  for (const g of f.gates) {
    const state = cell('td', g.passed ? 'held' : 'breached', 'gate.' + g.id, g.passed ? 'held' : 'breached');
    state.className = g.passed ? 'held' : 'breached';
    row(gates, [cell('td', g.gate), cell('td', g.actual === null ? 'n/a' : String(Math.round(g.actual * 1000) / 1000), 'gate.' + g.id + '.actual', g.actual), state]);
  }
  const buckets = $('buckets').tBodies[0];
  buckets.replaceChildren();
  for (const b of f.buckets) {
    const bar = document.createElement('span');
    bar.className = 'bar' + (b.used >= b.limit ? ' full' : '');
    const fill = document.createElement('span');
    fill.style.width = Math.min(100, b.limit ? (100 * b.used) / b.limit : 0) + '%';
    bar.append(fill);
    const c = document.createElement('td');
    c.append(bar);
    row(buckets, [cell('td', b.agency), cell('td', b.bucket), cell('td', String(b.used), 'bucket.' + b.agency + '.' + b.bucket, b.used), cell('td', String(b.limit)), c]);
  }
}
const events = new EventSource('/events');
events.onmessage = (e) => {
  const f = JSON.parse(e.data);
  render(f);
  if (f.state === 'finished') { finished = true; events.close(); }
};
events.onerror = () => {
  if (finished) return;
  $('state').textContent = 'connection lost: the load has ended or stopped; its report holds the figures';
  $('state').className = 'lost';
  events.close();
};
`;
