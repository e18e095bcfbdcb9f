import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, parseBlocks, ROOT } from './doc-blocks.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('starts with exactly the two commands of the quick start', () => {
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start')));
    const commands = parseBlocks('README.md', quick)
      .filter((b) => b.lang === 'sh')
      .map((b) => b.code.trim());
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it('then the three paths, then the reference, in under 300 lines', () => {
    const headings = [...readme.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'Quick start',
      'QA: check a service before a release',
      'CI: gate a build on load',
      'Agency: certify your credentials and your client',
      'Reference',
    ]);
    expect(readme.split('\n').length).toBeLessThan(300);
  });

  it('is the command .ci/run runs', () => {
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    // `npm ci`, the linters started beside the tests, then `npm test` itself, its status kept for the end.
    expect(ci).toMatch(/^npm ci\n(?:#.*\n|mkdir .*\n)*npm run lint .*&\nlint=\$!\nstatus=0\nnpm test \|\| status=\$\?$/m);
    // A failed lint fails the run too.
    expect(ci).toMatch(/^wait "\$lint" \|\| lint_status=\$\?$/m);
    expect(ci).toMatch(/^exit "\$lint_status"$/m);
  });

  it('links every page of docs/ from its reference table', () => {
    const table = readme.slice(readme.indexOf('## Reference'));
    const linked = new Set([...table.matchAll(/\]\((docs\/[a-z-]+\.md)\)/g)].map((m) => m[1]!));
    const reference = ['commands', 'profile', 'checks', 'load-and-gates', 'reports', 'certify', 'recipes', 'mock', 'internals', 'library'];
    expect(reference.filter((p) => !linked.has(`docs/${p}.md`))).toEqual([]);
  });
});

describe('the links of the README and of docs/', () => {
  it('lead to files that exist, and to headings that exist', () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*\.(?:md|ya?ml|ts|mjs|json))(?:#([a-z0-9-]+))?\)/g)) {
        const file = path.join(ROOT, path.dirname(page), target!);
        if (!existsSync(file)) broken.push(`${page}: ${target}`);
        else if (anchor && file.endsWith('.md') && !headingAnchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/^#+ (.*)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('the defect table of docs/selftest.md', () => {
  it('is the table the catalogue generates, and the checks catalogue links to it', async () => {
    const { renderDefectTable } = await import('../../src/selftest/defect-table.js');
    const doc = readFileSync(new URL('../../docs/selftest.md', import.meta.url), 'utf8');
    const begin = doc.indexOf('<!-- defects:begin -->\n');
    const end = doc.indexOf('<!-- defects:end -->');
    expect(begin).toBeGreaterThan(-1);
    expect(doc.slice(begin + '<!-- defects:begin -->\n'.length, end)).toBe(renderDefectTable());
    expect(readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8')).toContain('](selftest.md#defects)');
    expect(doc).toMatch(/^## Defects$/m);
  });
});
