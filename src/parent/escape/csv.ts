/**
 * A field of CSV (RFC 4180): a field holding a comma, a double quote or a line
 * break is quoted, its quotes doubled, so every row keeps its columns. Text
 * from a user (a scenario's or a server's name, a reason) also must not turn
 * into a formula when a spreadsheet opens the file: a field that starts with
 * `=`, `+`, `-` or `@` gets a leading `'`, which spreadsheets show as text.
 * Control characters are shown as visible stand-ins, as in every format here.
 * Numbers are written by csvNumber, never through csvText (-3 is a number).
 */
import { visibleControls } from './controls.js';

const FORMULA_START = /^[=+\-@]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvText(text: string): string {
  const shown = visibleControls(text);
  const inert = FORMULA_START.test(shown) ? `'${shown}` : shown;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

/** A number as JavaScript writes it (full precision); an empty field for null, undefined or a non-finite value. */
export function csvNumber(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
}

/** One record: its fields joined by commas, ended with CRLF as RFC 4180 says. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}
