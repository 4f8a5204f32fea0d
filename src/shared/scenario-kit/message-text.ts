/**
 * For scenarios: a message as text, whether the stack delivered it as a string
 * or as bytes. Built-in scenarios import this file directly, so the child
 * processes do not load the whole library for one function.
 */
import type { MessageData } from '../types/adapter-types.js';

/** A message as text, whether the stack delivered it as a string or as bytes. */
export function messageText(data: MessageData): string {
  if (typeof data === 'string') return data;
  // Node stacks hand over Buffers: decoded as they are, without a view made per message.
  return Buffer.isBuffer(data)
    ? data.toString()
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString();
}
