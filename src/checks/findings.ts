/*
 * The verdict builder of every check, for judges outside `src/checks/`
 * (certification): one evidence rule for the whole harness.
 */
export { Findings, skipped } from './_internal/findings.js';
