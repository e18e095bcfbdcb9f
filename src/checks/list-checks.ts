import { defaultRegistry } from './index.js';

/** Renders the selected checks as aligned text lines, or as a Markdown table. */
export function listChecks(opts: { only?: string | undefined; markdown?: boolean | undefined }): string {
  const checks = defaultRegistry().select(opts.only).checks;
  if (opts.markdown) {
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    const rows = checks.map((c) => `| ${c.id} | ${c.area} | ${cell(c.title)} | ${cell(c.clause)} | ${c.needs.join(', ') || '–'} |`);
    return ['| id | area | title | clause | needs |', '|---|---|---|---|---|', ...rows, ''].join('\n');
  }
  const width = Math.max(...checks.map((c) => c.id.length));
  return checks
    .map(
      (c) =>
        `${c.id.padEnd(width)}  ${c.area.padEnd(11)} ${c.title}\n${' '.repeat(width + 2)}${c.clause}${c.needs.length ? `  [needs ${c.needs.join(', ')}]` : ''}\n`,
    )
    .join('');
}
