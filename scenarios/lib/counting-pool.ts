/**
 * An undici keep-alive pool that counts the bytes its TCP sockets carry, headers
 * and all. The engine's ctx.http reports body bytes only, and the cost of
 * polling is mostly headers, so push-vs-poll brings its own poller pool.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { Pool, buildConnector } from 'undici';
import type { HttpClient } from '../../src/index.js';

export interface CountingPool {
  get(path: string): Promise<{ status: number; body: string }>;
  /** Bytes written (requests) and read (responses) on the wire so far. */
  wireBytes(): { up: number; down: number };
  close(): Promise<void>;
}

export function createCountingPool(origin: string): CountingPool {
  const connectTcp = buildConnector({});
  const live = new Set<Socket>();
  let closedUp = 0;
  let closedDown = 0;
  const pool = new Pool(origin, {
    connections: 1,
    pipelining: 1,
    connect(options, callback) {
      connectTcp(options, (...args) => {
        const socket = args[1];
        if (socket) {
          live.add(socket);
          socket.once('close', () => {
            live.delete(socket);
            closedUp += socket.bytesWritten;
            closedDown += socket.bytesRead;
          });
        }
        callback(...args);
      });
    },
  });
  return {
    async get(path) {
      const response = await pool.request({ method: 'GET', path });
      return { status: response.statusCode, body: await response.body.text() };
    },
    wireBytes() {
      let up = closedUp;
      let down = closedDown;
      for (const socket of live) {
        up += socket.bytesWritten;
        down += socket.bytesRead;
      }
      return { up, down };
    },
    close: () => pool.close(),
  };
}

/**
 * The origin ctx.http talks to. The client context does not expose the server's
 * HTTP URL, so one request is made through ctx.http and undici's request-creation
 * diagnostics channel names its origin.
 */
export async function originOf(http: HttpClient, probePath: string): Promise<string> {
  let origin: string | null = null;
  const listener = (message: unknown): void => {
    origin ??= String((message as { request: { origin: unknown } }).request.origin);
  };
  diagnostics.subscribe('undici:request:create', listener);
  try {
    await http.request('GET', probePath);
  } finally {
    diagnostics.unsubscribe('undici:request:create', listener);
  }
  if (origin === null) throw new Error('could not learn the server origin from ctx.http');
  return origin;
}
