/**
 * Serves a scenario's REST routes from a node:http server, or node:https with
 * TLS (the ws and socket.io stacks share one; uWS has its own router).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { HttpHandler, ServerTls } from '../../shared/types/adapter-types.js';

/** The HTTP server a ws or socket.io server rides on: node:https with Node's default TLS versions and ciphers when `tls` is given. */
export function createNodeServer(routes: Record<string, HttpHandler> | undefined, tls: ServerTls | undefined): Server {
  const handler = nodeHttpHandler(routes);
  return tls ? createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, handler) : createHttpServer(handler);
}

function nodeHttpHandler(routes: Record<string, HttpHandler> | undefined) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const handler = routes?.[`${request.method} ${url.pathname}`];
    if (!handler) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const result = handler({
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: Buffer.concat(chunks).toString(),
      });
      response
        .writeHead(result.status ?? 200, { 'content-type': result.contentType ?? 'application/json' })
        .end(result.body);
    });
  };
}

/**
 * Listens on `host`, port 0 (the kernel picks a free port) or the `port` of the cell's first server
 * process, and returns that port. `sharePort` (or a given port) listens with SO_REUSEPORT, which
 * only a Node that shares ports (runtimes/reuse-port.ts) is ever asked for.
 */
export async function listenOnFreePort(
  server: Server,
  host: string,
  share: { port?: number; sharePort?: boolean } = {},
): Promise<number> {
  const reusePort = share.sharePort === true || share.port !== undefined;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // `reusePort` (Node 22.12+) is not in @types/node 20's ListenOptions.
    server.listen(
      { host, port: share.port ?? 0, ...(reusePort ? { reusePort } : {}) } as Parameters<Server['listen']>[0],
      resolve,
    );
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return address.port;
}
