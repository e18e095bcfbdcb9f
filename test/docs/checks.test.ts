import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.js';

const page = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');

function section(title: string): string {
  const start = page.indexOf(`## ${title}`);
  expect(start, `docs/checks.md has a "${title}" section`).toBeGreaterThan(-1);
  const end = page.indexOf('\n#', start + 3);
  return page.slice(start, end === -1 ? undefined : end);
}

describe('the checks catalogue (docs/checks.md)', () => {
  it('traces every check to a SPEC clause, and names no check that does not exist', () => {
    const table = section('Traceability: SPEC clause → checks');
    const named = new Set(table.match(/\b[A-Z]{2}-\d{2}\b/g) ?? []);
    const ids = defaultRegistry().checks.map((c) => c.id);
    expect(ids.filter((id) => !named.has(id))).toEqual([]);
    expect([...named].filter((id) => !ids.includes(id))).toEqual([]);
  });
});
