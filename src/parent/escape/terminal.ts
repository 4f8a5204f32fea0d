/**
 * Text for a terminal (the table, progress lines, messages on stderr): a name
 * holding ESC[31m, a carriage return or a line break must not recolour, rewrite
 * or split what is printed; it shows as visible stand-ins (␛[31m) instead.
 */
import { visibleControls } from './controls.js';

/** One line: every control character shown, line breaks included. */
export function terminalText(text: string): string {
  return visibleControls(text);
}

/** Several lines (a stack trace, a footer): the line breaks stay, every other control character is shown. */
export function terminalLines(text: string): string {
  return visibleControls(text, '\n');
}
