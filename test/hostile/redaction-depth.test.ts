import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/profile/redactor.js';

/*
 * Issue 33: a secret base64-encoded three times survived in report.json while
 * the README promised every "decoded base64 run". The redaction reaches a
 * stated depth, and the profile page (docs/profile.md, where the README's
 * text on secrets moved) states that depth, not more.
 */

const SECRET = 'sk_live_Zq8xW3vN7pR2tY6u';
const redact = redactor([SECRET]);

function nested(times: number): string {
  let v = SECRET;
  for (let i = 0; i < times; i++) v = Buffer.from(v).toString('base64');
  return v;
}

describe('the depth of encoding the redaction reaches', () => {
  it.each([1, 2])('a secret base64-encoded %i time(s) is redacted anywhere in a text', (times) => {
    for (const text of [nested(times), `{"note":"${nested(times)}"}`, `prefix ${nested(times)} suffix`]) expect(redact(text)).not.toBe(text);
  });

  it('three times: redacted when it is the whole value, not inside a longer text (beyond the stated depth)', () => {
    expect(redact(nested(3))).not.toBe(nested(3));
    const inText = `{"note":"${nested(3)}"}`;
    expect(redact(inText)).toBe(inText);
  });

  it('the docs state that depth, and say a deeper secret stays', () => {
    const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'profile.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toMatch(/two levels of encoding: a secret base64-encoded twice is found anywhere, one encoded three times only when the whole value/);
    expect(readme).toMatch(/deeper nesting is not searched, and such a secret stays in the reports/);
  });
});
