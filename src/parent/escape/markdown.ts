/**
 * Text for GitHub-flavoured Markdown (a pull-request comment, a step summary):
 * what came from a user is shown as written, never read as Markdown or HTML.
 *
 * - markdownText: inline text. Every character that starts inline syntax
 *   (emphasis, code, links, raw HTML, entities, tables, math) is escaped with a
 *   backslash, which CommonMark defines for any ASCII punctuation.
 * - markdownCode: a code span around text that may hold backticks: its fence is
 *   one backtick longer than the longest run inside, so nothing closes it early.
 * - markdownTableCell: a whole cell of a table: a pipe not already escaped would
 *   end the cell, even inside a code span, so it is escaped.
 * Line breaks and other control characters are shown as visible stand-ins in all
 * three: a blank line would end the table or the paragraph.
 */
import { visibleControls } from './controls.js';

const INLINE_SYNTAX = /[\\`*_[\]<>&|~!#$]/g;

export function markdownText(text: string): string {
  return visibleControls(text).replace(INLINE_SYNTAX, (ch) => `\\${ch}`);
}

export function markdownCode(text: string): string {
  const shown = visibleControls(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // One space inside each end: CommonMark strips exactly one from each side, so a leading or trailing backtick cannot join the fence.
  return `${fence} ${shown} ${fence}`;
}

export function markdownTableCell(text: string): string {
  let cell = '';
  const shown = visibleControls(text);
  for (let i = 0; i < shown.length; i++) {
    const ch = shown[i]!;
    if (ch === '\\' && i + 1 < shown.length) {
      cell += ch + shown[++i]!;
    } else cell += ch === '|' ? '\\|' : ch;
  }
  return cell;
}
