/**
 * Text for HTML, in element content and in double- or single-quoted attribute
 * values: the five characters that can end a text or an attribute become
 * entities, so `</script>` or `<img src=x>` from a name is shown, never parsed.
 * Control characters are shown as visible stand-ins; line breaks and tabs stay
 * (a <pre> shows them).
 */
import { visibleControls } from './controls.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return visibleControls(text, '\n\t').replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}
