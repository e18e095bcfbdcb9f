/** Styles of the comparison and trend pages on top of the run report's (`STYLES`): before-and-after pairs, delta tables (a long file path wraps rather than widening the page), counts that link to their section, small multiples. */
export const COMPARE_STYLES = `<style>
figure.chart{margin:0}
.charts.small{grid-template-columns:repeat(auto-fill,minmax(520px,1fr))}
.charts.tiles{grid-template-columns:repeat(auto-fill,minmax(340px,1fr))}
figcaption{font-weight:600;margin-top:4px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin-top:6px}
.pair div{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:6px 10px;font-size:13px;overflow-wrap:anywhere}
.pair h4{margin:0 0 2px;font-size:11px;text-transform:uppercase;letter-spacing:.5px;color:var(--muted)}
table.delta{border-collapse:collapse;margin:8px 0 16px;background:var(--card);border:1px solid var(--line)}
.delta th,.delta td{padding:4px 10px;text-align:right;border-bottom:1px solid var(--line);font-size:13px;white-space:nowrap}
.delta th:first-child,.delta td:first-child,.delta td.msg,.delta td.left,.delta th.left{text-align:left}
.delta td.msg{white-space:normal;min-width:260px}
.delta td.path{white-space:normal;overflow-wrap:anywhere}
a.count{color:inherit;text-decoration:none}a.count:hover{border-color:#0969da}
.delta tr.worse td{background:#fff5f5}.delta tr.better td{background:#f0fff4}
.delta thead th{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.5px;background:var(--bg)}
.worse-text{color:var(--fail);font-weight:600}.better-text{color:var(--pass);font-weight:600}
</style>`;
