/**
 * Characters no output format should pass on as they are: C0 and C1 control
 * characters (ESC starts terminal escapes, CR and LF break lines), DEL, the
 * Unicode line and paragraph separators, and the bidirectional overrides and
 * isolates that reorder what a reader sees. Every escaper of this folder
 * starts here; each format then escapes its own syntax.
 */

/** C0, DEL, C1, U+2028/U+2029, and the bidi embeddings, overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Each control character as a visible stand-in: C0 and DEL as their Unicode
 * control pictures (ESC as ␛, LF as ␊), the others as U+FFFD. `keep` lists
 * characters the caller's format carries safely (a line break in a <pre>).
 */
export function visibleControls(text: string, keep = ''): string {
  return text.replace(CONTROL, (ch) => {
    if (keep.includes(ch)) return ch;
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? '\u2421' : '\ufffd';
  });
}
