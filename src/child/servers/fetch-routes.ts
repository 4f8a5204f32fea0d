/**
 * Serves a scenario's REST routes from a fetch-style handler (Request in,
 * Response out), as Bun.serve and Deno.serve call it.
 */
import type { HttpHandler } from '../../shared/types/adapter-types.js';

export async function serveFetchRoute(
  request: Request,
  routes: Record<string, HttpHandler> | undefined,
): Promise<Response> {
  const url = new URL(request.url);
  const handler = routes?.[`${request.method} ${url.pathname}`];
  if (!handler) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const body = await request.text();
  const result = handler({ method: request.method, path: url.pathname, query: url.searchParams, body });
  return new Response(result.body, {
    status: result.status ?? 200,
    headers: { 'content-type': result.contentType ?? 'application/json' },
  });
}

/** True for an HTTP request that asks to become a WebSocket. */
export function wantsWebSocket(request: Request): boolean {
  return request.headers.get('upgrade')?.toLowerCase() === 'websocket';
}
