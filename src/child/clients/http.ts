/**
 * The HTTP side of a client process: undici over keep-alive, counting the bytes
 * its sockets carry (headers and all: for small polls the headers are most of
 * the cost, so body sizes alone would flatter REST). Over https:// it trusts
 * what the WebSocket clients trust.
 *
 * undici is loaded at the first request, not with the module: every client
 * process creates ctx.http, and most scenarios never poll. Loading it cost each
 * of them about 5 MB of heap (which every full GC then marks) and a few hundred
 * milliseconds of start-up.
 */
import type { Socket } from 'node:net';
import type { Pool } from 'undici';
import type { HttpClient } from '../../shared/types/scenario-types.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import { loadUndici } from '../runtimes/undici.js';
import { nodeTlsOptions } from './tls-trust.js';

export function createHttpClient(
  httpUrl: string,
  connections = 1,
  tls?: ClientTls,
): HttpClient & { close(): Promise<void> } {
  const live = new Set<Socket>();
  const closed = { sentBytes: 0, receivedBytes: 0 };
  let pool: Promise<Pool> | null = null;
  const open = async (): Promise<Pool> => {
    const { Pool: UndiciPool, buildConnector } = await loadUndici();
    const connectTcp = buildConnector(nodeTlsOptions(tls));
    return new UndiciPool(httpUrl, {
      connections,
      pipelining: 1,
      connect(options, callback) {
        connectTcp(options, (error, socket) => {
          if (socket) {
            live.add(socket as Socket);
            socket.once('close', () => {
              live.delete(socket as Socket);
              closed.sentBytes += socket.bytesWritten;
              closed.receivedBytes += socket.bytesRead;
            });
          }
          callback(error as never, socket as never);
        });
      },
    });
  };
  return {
    async request(method, path, body) {
      pool ??= open();
      const response = await (await pool).request({
        method,
        path,
        ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      return { status: response.statusCode, body: await response.body.text() };
    },
    wireBytes() {
      const total = { ...closed };
      for (const socket of live) {
        total.sentBytes += socket.bytesWritten;
        total.receivedBytes += socket.bytesRead;
      }
      return total;
    },
    async close() {
      if (pool) await (await pool).close();
    },
  };
}
