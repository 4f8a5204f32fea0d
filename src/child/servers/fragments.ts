/** Splits a message into frame payloads of at most `fragmentBytes` (bytes, not characters). */
export function splitIntoFragments(data: string | Uint8Array, fragmentBytes: number): Buffer[] {
  const bytes =
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += fragmentBytes) {
    parts.push(bytes.subarray(offset, Math.min(offset + fragmentBytes, bytes.length)));
  }
  return parts.length > 0 ? parts : [bytes];
}
