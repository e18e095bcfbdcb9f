/** Report writers: pure renderers of a RunResult, and the writer that puts them on disk. */
export * from './model.js';
export * from './run-result.js';
export * from './load-result.js';
export * from './selftest-result.js';
export { renderJson } from './render-json.js';
export { renderJunit, JUNIT_CLASSNAME_PREFIX } from './render-junit.js';
export { renderMarkdown } from './render-markdown.js';
export { renderHtml } from './render-html.js';
export { renderLoadSection } from './html/load-section.js';
export { html, xmlText, xmlAttr, cdata, stripXmlIllegal, mdInline, mdCell, mdCode, mdFence } from './escape.js';
export { EVIDENCE_BODY_LIMIT } from './html/evidence.js';
export { writeReports, latestTarget, REPORT_FILES, type LatestPointer, type WrittenReports } from './write-reports.js';
export { newRunId, RUN_ID_PATTERN } from './run-id.js';
