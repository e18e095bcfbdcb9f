/**
 * A small strict XML 1.0 well-formedness parser for the tests: one root,
 * matched tags, quoted unique attributes, only predefined or numeric entity
 * references, legal characters, CDATA and comments. Throws on any violation.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text and CDATA content directly inside this element, entities decoded. */
  text: string;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ILLEGAL = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(raw: string, at: number): string {
  return raw.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & near offset ${at}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref in named) return named[ref] as string;
    const num = /^#(\d+)$/.exec(ref)?.[1];
    const hex = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1];
    const cp = num !== undefined ? Number(num) : hex !== undefined ? parseInt(hex, 16) : NaN;
    if (Number.isNaN(cp)) throw new Error(`unknown entity ${m} near offset ${at}`);
    const ch = String.fromCodePoint(cp);
    if (ILLEGAL.test(ch)) throw new Error(`reference to illegal character ${m}`);
    return ch;
  });
}

/** Parses `xml` strictly and returns its root element. */
export function parseXml(xml: string): XmlElement {
  const bad = ILLEGAL.exec(xml);
  if (bad) throw new Error(`illegal character U+${bad[0].codePointAt(0)?.toString(16)} at ${bad.index}`);
  let i = 0;
  const peek = (s: string): boolean => xml.startsWith(s, i);
  const skipWs = (): void => {
    while (i < xml.length && /\s/.test(xml[i] ?? '')) i++;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    if (!m) throw new Error(`name expected at ${i}`);
    i += m[0].length;
    return m[0];
  };
  const skipMisc = (): void => {
    for (;;) {
      skipWs();
      if (peek('<!--')) {
        const end = xml.indexOf('-->', i + 4);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
      } else return;
    }
  };
  if (peek('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) throw new Error('unterminated declaration');
    i = end + 2;
  }
  skipMisc();
  const element = (): XmlElement => {
    if (!peek('<')) throw new Error(`element expected at ${i}`);
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      skipWs();
      if (peek('/>')) {
        i += 2;
        return el;
      }
      if (peek('>')) {
        i++;
        break;
      }
      if (i === before) throw new Error(`whitespace expected before attribute at ${i}`);
      const an = name();
      skipWs();
      if (!peek('=')) throw new Error(`= expected at ${i}`);
      i++;
      skipWs();
      const q = xml[i];
      if (q !== '"' && q !== "'") throw new Error(`quoted value expected at ${i}`);
      const end = xml.indexOf(q, i + 1);
      if (end < 0) throw new Error('unterminated attribute');
      const raw = xml.slice(i + 1, end);
      if (raw.includes('<')) throw new Error(`< in attribute ${an}`);
      if (an in el.attrs) throw new Error(`duplicate attribute ${an}`);
      el.attrs[an] = decode(raw, i);
      i = end + 1;
    }
    for (;;) {
      if (i >= xml.length) throw new Error(`unclosed <${el.name}>`);
      if (peek('</')) {
        i += 2;
        const closing = name();
        if (closing !== el.name) throw new Error(`</${closing}> closes <${el.name}>`);
        skipWs();
        if (!peek('>')) throw new Error(`> expected at ${i}`);
        i++;
        return el;
      }
      if (peek('<![CDATA[')) {
        const end = xml.indexOf(']]>', i + 9);
        if (end < 0) throw new Error('unterminated CDATA');
        el.text += xml.slice(i + 9, end);
        i = end + 3;
      } else if (peek('<!--')) {
        const end = xml.indexOf('-->', i + 4);
        if (end < 0) throw new Error('unterminated comment');
        i = end + 3;
      } else if (peek('<')) {
        el.children.push(element());
      } else {
        const next = xml.indexOf('<', i);
        const raw = xml.slice(i, next < 0 ? xml.length : next);
        if (raw.includes(']]>')) throw new Error(']]> in text');
        el.text += decode(raw, i);
        i += raw.length;
      }
    }
  };
  const root = element();
  skipMisc();
  if (i !== xml.length) throw new Error(`content after root element at ${i}`);
  return root;
}

/** All descendants named `name`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    out.push(...findAll(c, name));
  }
  return out;
}
