/** Fragment-safe form of a case id (`scenario:retry-storm` → `scenario-retry-storm`). */
function slug(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** The anchor of a case's row in the table of every case. */
export function caseAnchor(id: string): string {
  return `case-${slug(id)}`;
}

/** The anchor of a failing case's card in the failures section. */
export function failureAnchor(id: string): string {
  return `failure-${slug(id)}`;
}
