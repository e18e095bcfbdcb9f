import { DEFECT_NAMES, DEFECTS } from '../mock/defects/catalogue.js';
import { DEFECT_EXPECTATIONS } from './expectations.js';

/** Escapes a table cell of GitHub markdown. */
export function mdCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * The defect table of docs/selftest.md, generated from the catalogue and the
 * expectations (no run needed): defect, what it does, the promise it breaks,
 * the checks expected to catch it.
 */
export function renderDefectTable(): string {
  const lines = ['| defect | what the mock does | promise broken | caught by |', '|---|---|---|---|'];
  for (const name of DEFECT_NAMES) {
    const e = DEFECT_EXPECTATIONS[name];
    lines.push(`| \`${name}\` | ${mdCell(DEFECTS[name])} | ${mdCell(e.promise)} | ${e.caughtBy.join(', ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
