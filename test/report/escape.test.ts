import { describe, expect, it } from 'vitest';
import { cdata, html, mdCell, mdCode, mdFence, xmlAttr, xmlText } from '../../src/report/escape.js';

describe('report escaping', () => {
  it('escapes HTML text and attributes', () => {
    expect(html(`</script><a href="x" onclick='y'>&`)).toBe('&lt;/script&gt;&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;');
  });

  it('keeps CDATA sections closed only where they should be', () => {
    expect(cdata('a]]>b')).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
    expect(xmlText('a\u0001<b>')).toBe('a&lt;b&gt;');
    expect(xmlAttr('"\n')).toBe('&quot;&#10;');
  });

  it('keeps Markdown cells and code intact', () => {
    expect(mdCell('a|b\nc *d*')).toBe('a\\|b c \\*d\\*');
    expect(mdCode('x `y` z')).toBe('``x `y` z``');
    expect(mdFence('```\ncode', 'text')).toBe('````text\n```\ncode\n````');
  });
});
