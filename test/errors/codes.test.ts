import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors/codes.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? sources(f) : f.endsWith('.ts') ? [f] : [];
  });
}

describe('error codes', () => {
  const codes = Object.keys(ERROR_CODES);

  it('are unique, E_-prefixed, and each has an exit status and a summary', () => {
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(Object.values(ERROR_CODES).map((c) => c.summary)).size).toBe(codes.length);
    for (const [code, { exit, summary }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^E_[A-Z_]+$/);
      expect([1, 2, 3, 70]).toContain(exit);
      expect(summary).not.toBe('');
    }
  });

  it('are each thrown somewhere, and nothing throws an unlisted one', () => {
    const text = sources('src')
      .filter((f) => !f.endsWith(path.join('errors', 'codes.ts')))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const used = new Set([...text.matchAll(/['"](E_[A-Z_]+)['"]/g)].map((m) => m[1]!));
    expect(codes.filter((c) => !used.has(c))).toEqual([]);
    expect([...used].filter((c) => !codes.includes(c))).toEqual([]);
  });
});
