/**
 * Text a target chose (an `error.code`, a message, a header echoed into a
 * verdict) reaches the console; a terminal would obey any control sequence
 * in it: clear the screen, rewrite a line, retitle the window, reorder what
 * is shown with bidi overrides. Every console printer passes its lines
 * through {@link terminalSafe}; the report files keep the bytes as they came.
 */

// ESC sequences first, whole, so no `[2J` is left behind: CSI (ESC [ … final),
// OSC/DCS/SOS/PM/APC strings (up to BEL or ESC \), then any two-character escape.
// Their 8-bit forms (C1 CSI 0x9B, OSC 0x9D, …) are caught the same way.
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g;
// C0 but tab and newline, DEL, C1; bidi embeddings, overrides, isolates and marks.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NEWLINE = /\n/g;

/** Options of {@link terminalSafe}. */
interface TerminalSafeOptions {
  /** Keep newlines (a block of lines); otherwise each becomes a space. @defaultValue false */
  multiline?: boolean | undefined;
}

/**
 * `text` with every terminal control sequence and control character
 * removed: C0 (tab kept; newline kept when `multiline`), DEL, C1, ESC
 * sequences and bidi controls.
 */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const stripped = text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
  return options.multiline ? stripped : stripped.replace(NEWLINE, ' ');
}
