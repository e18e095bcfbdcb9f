import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/log/terminal-safe.js';

describe('terminalSafe', () => {
  it('removes ESC sequences whole: CSI, OSC, two-character escapes and their 8-bit forms', () => {
    expect(terminalSafe('a\u001b[2Jb')).toBe('ab');
    expect(terminalSafe('a\u001b[38;5;196mred\u001b[0m')).toBe('ared');
    expect(terminalSafe('a\u001b]0;title\u0007b')).toBe('ab');
    expect(terminalSafe('a\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\b')).toBe('alinkb');
    expect(terminalSafe('a\u001bcb')).toBe('ab');
    expect(terminalSafe('a\u009b2Jb')).toBe('ab');
    expect(terminalSafe('trailing\u001b')).toBe('trailing');
  });

  it('removes C0 but tab, DEL, C1 and bidi controls; newlines only outside multiline', () => {
    expect(terminalSafe('a\u0000b\u0007c\rd\u0008e\u007ff\u0085g')).toBe('abcdefg');
    expect(terminalSafe('tab\there')).toBe('tab\there');
    expect(terminalSafe('x\u202eevil\u202c \u2066y\u2069\u200f\u061c')).toBe('xevil y');
    expect(terminalSafe('one\ntwo')).toBe('one two');
    expect(terminalSafe('one\ntwo', { multiline: true })).toBe('one\ntwo');
  });

  it('leaves ordinary text, accents and symbols alone', () => {
    const text = 'PASS  WL-05  Currency rates: café €12 → ✓ 日本';
    expect(terminalSafe(text)).toBe(text);
  });
});
