/*
 * The verdict builder of every check, for judges outside `src/checks/`
 * (certification): one evidence rule for the whole harness.
 */
export { errored, Findings, skipped, type EvidenceRef } from './_internal/findings.js';
