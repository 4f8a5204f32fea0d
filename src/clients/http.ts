/** The HTTP side of a client process: undici over one keep-alive connection pool. */
import { Pool } from 'undici';
import type { HttpClient } from '../types.js';

export function createHttpClient(httpUrl: string): HttpClient & { close(): Promise<void> } {
  let pool: Pool | null = null;
  return {
    async request(method, path, body) {
      pool ??= new Pool(httpUrl, { connections: 4, pipelining: 1 });
      const response = await pool.request({ method, path, ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}) });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        body: text,
        // Bodies only: headers are the same size either way and undici does not expose the raw request.
        requestBytes: body === undefined ? 0 : Buffer.byteLength(body),
        responseBytes: Buffer.byteLength(text),
      };
    },
    async close() {
      await pool?.close();
    },
  };
}
