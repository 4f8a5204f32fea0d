/**
 * Text for XML 1.0 (JUnit reports), in element content and in double-quoted
 * attribute values: `&`, `<`, `>`, `"` and `'` become entities, so a name can
 * neither open an element nor end an attribute. XML 1.0 cannot hold most
 * control characters at all, not even as character references: they are shown
 * as visible stand-ins, as in every format here, and so are line breaks in an
 * attribute (a parser would fold them into spaces). Element text keeps its
 * line breaks and tabs.
 */
import { visibleControls } from './controls.js';

/** Noncharacters XML 1.0 cannot hold, shown as U+FFFD. */
const NOT_XML = /[\ufffe\uffff]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function xmlText(text: string): string {
  return visibleControls(text, '\n\t')
    .replace(NOT_XML, '\ufffd')
    .replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

export function xmlAttribute(text: string): string {
  return visibleControls(text)
    .replace(NOT_XML, '\ufffd')
    .replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}
