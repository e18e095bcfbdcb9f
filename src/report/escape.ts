/**
 * Escaping for the report formats. Evidence is hostile input (bodies and
 * headers come from the service under test), so every writer routes text
 * through these before it reaches markup. Public to the other areas that
 * write markup of their own (the self-test and certificate pages).
 */

// Characters XML 1.0 forbids anywhere, even as character references: C0
// controls except tab/LF/CR, lone surrogates, U+FFFE and U+FFFF.
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes characters that XML 1.0 does not allow at all. */
function stripXmlIllegal(text: string): string {
  return text.replace(XML_ILLEGAL, '');
}

/** Escapes text for an XML element body. */
export function xmlText(text: string): string {
  return stripXmlIllegal(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted XML attribute, keeping tabs and line breaks as references so parsers do not normalise them away. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** Wraps text in a CDATA section, splitting any `]]>` so it cannot close the section early. */
export function cdata(text: string): string {
  return `<![CDATA[${stripXmlIllegal(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

/** What {@link html} replaces or drops; most text (figures, names) holds none of it and is returned as it is. */
const HTML_SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Escapes text for HTML element bodies and quoted attributes alike. */
export function html(text: unknown): string {
  const s = String(text);
  if (!HTML_SPECIAL.test(s)) return s;
  return (
    s
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
      // NUL and other C0 controls render as garbage or get replaced; drop them.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
  );
}

/** Escapes inline Markdown text: one line, no HTML, no emphasis or links. */
export function mdInline(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/\r?\n|\r/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]])/g, '\\$1');
}

/** Escapes text for a Markdown table cell: inline escaping plus pipes, which would split the cell. */
export function mdCell(text: string): string {
  return mdInline(text).replace(/\|/g, '\\|');
}

/** Fences text as a Markdown code block with a fence longer than any backtick run inside it. */
export function mdFence(text: string, lang = ''): string {
  const clean = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
  const longest = Math.max(0, ...Array.from(clean.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${clean}\n${fence}`;
}

/** Inline Markdown code span that survives backticks in the text. */
export function mdCode(text: string): string {
  const clean = text.replace(/[\u0000-\u001F]/g, ' ');
  const longest = Math.max(0, ...Array.from(clean.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${clean}${pad}${ticks}`;
}
