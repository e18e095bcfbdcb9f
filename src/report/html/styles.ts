/** The page's only stylesheet, inlined; system fonts only, so nothing is fetched. */
export const STYLES = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--card:#fff;
--pass:#1a7f37;--fail:#cf222e;--error:#8250df;--warn:#b35900;--skip:#6e7781;--known:#a0686c;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1320px;margin:0 auto;padding:24px}
h2{font-size:18px;margin:32px 0 12px}
h3{font-size:14px;margin:0 0 8px}
code,pre{font-family:var(--mono);font-size:12px}
.muted{color:var(--muted)}
.banner{display:flex;align-items:stretch;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
.verdict{display:flex;flex-direction:column;justify-content:center;align-items:center;min-width:220px;padding:20px 28px;color:#fff}
.verdict-pass{background:var(--pass)}.verdict-fail{background:var(--fail)}.verdict-inconclusive{background:var(--warn)}
.verdict strong{font-size:56px;line-height:1;letter-spacing:2px}.verdict .practice-tag{font-size:18px;letter-spacing:3px;margin-bottom:4px}
.verdict span{margin-top:6px;font-size:13px;opacity:.9}
.run{flex:1;padding:18px 24px}
.run h1{font-size:20px;margin:0 0 4px}
.meta{display:flex;flex-wrap:wrap;gap:4px 20px;color:var(--muted);font-size:13px}
.meta b{color:var(--fg);font-weight:600}
.counts{display:flex;gap:10px;margin-top:14px;flex-wrap:wrap}
.count{min-width:92px;padding:6px 12px;border-radius:8px;background:var(--bg);border:1px solid var(--line)}
.count b{display:block;font-size:22px;line-height:1.2}
.count span{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.5px}
.count.zero{opacity:.45}
.c-pass b{color:var(--pass)}.c-fail b{color:var(--fail)}.c-error b{color:var(--error)}.c-warn b{color:var(--warn)}.c-skip b{color:var(--skip)}.c-known b{color:var(--known)}
.bar{display:flex;height:8px;border-radius:4px;overflow:hidden;background:var(--line);margin-top:12px}
.bar i{display:block;height:100%}
.notes{margin:16px 0 0;padding:12px 16px 12px 36px;background:#fff8c5;border:1px solid #e8d27a;border-radius:8px}
.areas{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:12px}
.area{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--pass);border-radius:8px;padding:12px 14px}
.area.w-fail{border-left-color:var(--fail)}.area.w-error{border-left-color:var(--error)}.area.w-warn{border-left-color:var(--warn)}.area.w-skip{border-left-color:var(--skip)}.area.w-known{border-left-color:var(--known)}
.area-head{display:flex;justify-content:space-between;align-items:baseline}
.area-name{font-weight:600;font-size:15px;text-transform:capitalize}
.area-score{font-size:13px;color:var(--muted)}
.area-score b{color:var(--fg)}
.area .bar{height:6px;margin:8px 0}
.area ul{margin:0;padding:0;list-style:none;font-size:12px;color:var(--muted)}
.area li{margin-bottom:2px}
.area-failing{display:flex;flex-wrap:wrap;gap:4px 8px;margin:0 0 8px;font-size:12px}
.area-failing a{color:var(--fg);text-decoration:none;font-family:var(--mono)}
.area-failing a:hover{text-decoration:underline}
.failure{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:8px;padding:12px 16px;margin-bottom:12px}
.failure header{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline}
.failure header a{margin-left:auto;font-size:12px}
.failure p{margin:6px 0;overflow-wrap:anywhere}
.failure .msg{font-weight:500}
.ev-lines{margin:6px 0;padding-left:18px;font-size:12px}.ev-lines code{word-break:break-all}
.failure .decisive{border-left:3px solid var(--fail);padding:2px 0 2px 10px;margin:8px 0}.failure .decisive-title{margin:2px 0}
.failure .other-exchanges{margin-top:6px}.failure .other-exchanges .failure-evidence{margin-left:18px}
.failure summary{cursor:pointer;color:#0969da;font-size:12px}
code.replay{display:inline-block;padding:2px 6px;background:var(--bg);border:1px solid var(--line);border-radius:4px;word-break:break-all}
.comparison{margin:8px 0}
.comparison>p{overflow-wrap:anywhere}
.raw-pair{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.raw,.comparison pre.diff{border:1px solid var(--line);border-radius:6px;overflow:hidden}
.raw h4,.comparison>h4{margin:0;padding:6px 10px;font-size:11px;text-transform:uppercase;color:var(--muted);letter-spacing:.5px;background:var(--bg)}
.comparison>h4{background:none;padding:6px 0 4px}
.raw pre,.comparison pre.diff{margin:0;padding:8px 10px;max-height:320px;overflow:auto;white-space:pre-wrap;word-break:break-all;background:#fff}
.diff span{display:block}.diff .dadd{background:#dafbe1}.diff .ddel{background:#ffebe9}
details.pretty summary{cursor:pointer;color:#0969da;font-size:11px;padding:0 10px 6px}
.zoom{font-size:12px;font-weight:600;margin:8px 0 0;color:var(--muted)}
.quiet-buckets{font-size:12px}
table.load-gates{border-collapse:collapse;margin:8px 0 16px;background:var(--card);border:1px solid var(--line)}
.load-gates th,.load-gates td{padding:4px 12px;text-align:left;border-bottom:1px solid var(--line);font-size:13px}
.load-gates tr.failing td{background:#fff5f5}.gate-mark{font-weight:700;font-size:15px}
table.load-ops,table.load-outcomes,table.load-wallets{border-collapse:collapse;margin:8px 0 16px;background:var(--card);border:1px solid var(--line)}
.load-ops th,.load-ops td,.load-outcomes th,.load-outcomes td,.load-wallets th,.load-wallets td{padding:3px 10px;text-align:right;border-bottom:1px solid var(--line);font-size:13px;white-space:nowrap}
.load-ops th[scope=row],.load-outcomes th[scope=rowgroup],.load-outcomes td.outcome,.load-wallets th[scope=row],.load-wallets td.verdict{text-align:left;vertical-align:top}
.load-outcomes caption,.load-wallets caption{text-align:left;font-size:13px;color:var(--muted);padding:4px 0}.load-outcomes tr.outcome-2xx td{font-weight:600}
.swatch{display:inline-block;width:10px;height:10px;margin-right:6px;vertical-align:-1px}
.panel{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:12px}
.chart svg{width:100%;height:auto;display:block}
.window-chart{max-width:760px;margin:10px 0}
.legend{display:flex;gap:14px;font-size:12px;color:var(--muted);margin-top:4px;flex-wrap:wrap}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px;vertical-align:-1px}
.legend i.line{border-radius:0;height:2px;width:14px;vertical-align:3px}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:11px;fill:#59636e}
.toolbar{display:flex;gap:6px;align-items:center;margin-bottom:10px;flex-wrap:wrap}
.toolbar button{font:inherit;font-size:13px;padding:4px 12px;border:1px solid var(--line);border-radius:16px;background:var(--card);cursor:pointer}
.toolbar button[aria-pressed=true]{background:var(--fg);color:#fff;border-color:var(--fg)}
.toolbar .spacer{flex:1}
table.cases{width:100%;border-collapse:collapse;table-layout:fixed;background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:hidden}
.cases th{text-align:left;font-size:12px;text-transform:uppercase;letter-spacing:.5px;color:var(--muted);background:var(--bg);padding:8px 10px;border-bottom:1px solid var(--line)}
.cases td{padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
.cases td.msg{overflow-wrap:anywhere}
.cases tr.failing td{background:#fff5f5}
.cases tr.has-ev td{border-bottom:0;padding-bottom:2px}
.cases tr.ev td{padding-top:0}
.cases col.c-v{width:86px}.cases col.c-id{width:200px}.cases col.c-area{width:112px}.cases col.c-clause{width:220px}.cases col.c-title{width:24%}
.case-id{font-family:var(--mono);font-size:12px;font-weight:600;color:var(--fg);text-decoration:none}
a.case-id:hover{text-decoration:underline}
.badge{display:inline-block;white-space:nowrap;min-width:52px;text-align:center;padding:1px 8px;border-radius:10px;font-size:11px;font-weight:700;color:#fff;letter-spacing:.5px}
.badge-pass{background:var(--pass)}.badge-fail{background:var(--fail)}.badge-error{background:var(--error)}.badge-warn{background:var(--warn)}.badge-skip{background:var(--skip)}.badge-known{background:var(--known)}
.known-note{color:var(--known);font-weight:600}
details.evidence{margin:0}
details.evidence summary{cursor:pointer;color:#0969da;font-size:12px}
.exchange{margin-top:8px;border:1px solid var(--line);border-radius:6px;overflow:hidden}
.exchange-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline;word-break:break-all;padding:6px 10px;background:var(--bg);border-bottom:1px solid var(--line);font-family:var(--mono);font-size:12px}
.exchange-head .status{font-weight:700}
.exchange-head .label{color:var(--muted);margin-left:auto;word-break:normal}
.exchange pre{margin:0;padding:8px 10px;max-height:320px;overflow:auto;white-space:pre-wrap;word-break:break-all;background:#fff}
.exchange h4{margin:0;padding:6px 10px 0;font-size:11px;text-transform:uppercase;color:var(--muted);letter-spacing:.5px}
.trunc{color:var(--warn);font-size:11px;padding:0 10px 6px}
.case-details{margin-top:8px}
footer{margin:32px 0 8px;color:var(--muted);font-size:12px}
.hidden{display:none}
`;
