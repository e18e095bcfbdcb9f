import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function section(title: string): string {
  const start = readme.indexOf(`### ${title}`);
  expect(start, `README has a "${title}" section`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n#', start + 4);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('README', () => {
  it('traces every check to a SPEC clause, and names no check that does not exist', () => {
    const table = section('Traceability: SPEC clause → checks');
    const named = new Set(table.match(/\b[A-Z]{2}-\d{2}\b/g) ?? []);
    const ids = defaultRegistry().checks.map((c) => c.id);
    expect(ids.filter((id) => !named.has(id))).toEqual([]);
    expect([...named].filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('starts with exactly the two commands of the quick start', () => {
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Commands'));
    const commands = [...quick.matchAll(/```sh\n([^`]+)```/g)].map((m) => m[1]!.trim());
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it('is the command .ci/run runs', () => {
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    expect(ci).toMatch(/^npm ci\n(?:#.*\n)*npm run lint\n(?:#.*\n)*status=0\nnpm test \|\| status=\$\?$/m);
  });
});

describe('the defect table of docs/selftest.md', () => {
  it('is the table the catalogue generates, and the README links to it', async () => {
    const { renderDefectTable } = await import('../../src/selftest/defect-table.js');
    const doc = readFileSync(new URL('../../docs/selftest.md', import.meta.url), 'utf8');
    const begin = doc.indexOf('<!-- defects:begin -->\n');
    const end = doc.indexOf('<!-- defects:end -->');
    expect(begin).toBeGreaterThan(-1);
    expect(doc.slice(begin + '<!-- defects:begin -->\n'.length, end)).toBe(renderDefectTable());
    expect(readme).toContain('](docs/selftest.md#defects)');
    expect(doc).toMatch(/^## Defects$/m);
  });
});

describe('the internals moved to docs/', () => {
  it('every docs/ page the README links to exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[a-z-]+\.md)(?:#[a-z-]+)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    const missing = links.filter((l) => !existsSync(new URL(`../../${l}`, import.meta.url)));
    expect(missing).toEqual([]);
  });
});
