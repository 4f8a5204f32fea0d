/**
 * For scenarios: a message as text, whether the stack delivered it as a string
 * or as bytes. Built-in scenarios import this file directly, so the child
 * processes do not load the whole library for one function.
 */
import type { MessageData } from '../adapter-types.js';

export function messageText(data: MessageData): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString();
}
