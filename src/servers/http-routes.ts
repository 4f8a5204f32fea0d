/**
 * Serves a scenario's REST routes from a node:http server (the ws and socket.io
 * stacks share one; uWS has its own router).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHandler } from '../types.js';

export function nodeHttpHandler(routes: Record<string, HttpHandler> | undefined) {
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

/** The address a node server ended up on, after listening on port 0. */
export function listeningPort(address: ReturnType<import('node:net').Server['address']>): number {
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return address.port;
}
