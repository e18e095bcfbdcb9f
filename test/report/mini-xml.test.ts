import { describe, expect, it } from 'vitest';
import { findAll, parseXml } from './_helpers/mini-xml.js';

describe('mini XML parser (the JUnit test relies on it rejecting bad XML)', () => {
  it('parses nesting, attributes, entities and CDATA', () => {
    const root = parseXml('<?xml version="1.0"?>\n<a x="1 &amp; &#10;2"><b>t&lt;<![CDATA[<raw> ]]]]><![CDATA[>]]></b><b/></a>\n');
    expect(root.attrs['x']).toBe('1 & \n2');
    expect(findAll(root, 'b')).toHaveLength(2);
    expect(findAll(root, 'b')[0]?.text).toBe('t<<raw> ]]>');
  });

  it.each([
    ['unclosed tag', '<a><b></a>'],
    ['mismatched close', '<a></b>'],
    ['bare ampersand', '<a>x & y</a>'],
    ['unknown entity', '<a>&nbsp;</a>'],
    ['raw < in attribute', '<a x="<"/>'],
    ['duplicate attribute', '<a x="1" x="2"/>'],
    ['control character', '<a>\u0001</a>'],
    ['U+FFFE', '<a>\uFFFE</a>'],
    ['lone surrogate', '<a>\uD800</a>'],
    [']]> in text', '<a>x ]]> y</a>'],
    ['two roots', '<a/><b/>'],
    ['unquoted attribute', '<a x=1/>'],
  ])('rejects %s', (_name, xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});
