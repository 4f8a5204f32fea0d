/**
 * One HTTP request read to its end under an overall deadline: connecting,
 * the headers and the whole body must all arrive within it, so a server that
 * trickles one byte a second, or answers `101 Switching Protocols` to a plain
 * GET, cannot hold wsbench (an idle timeout alone never fires on either).
 * An abort signal ends it at once, too.
 */
import http from 'node:http';
import https from 'node:https';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import { nodeTlsOptions } from '../../child/clients/tls-trust.js';

interface HttpReadOptions {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string | number>;
  /** Everything, from connecting to the body's last byte, within this long. */
  deadlineMs: number;
  signal?: AbortSignal;
  agent?: http.Agent | false;
  /** A longer body is cut off (default 1 MiB). */
  maxBytes?: number;
  /** Over https://: what to trust, as the cell's clients do; absent: Node's default roots. */
  tls?: ClientTls;
}

/** Why a read ended without an answer: `unreachable` (nothing to talk to), or anything else that went wrong. */
export class HttpReadError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'deadline' | 'aborted' | 'broken',
    readonly code?: string,
  ) {
    super(message);
  }
}

export function httpRead(target: URL, options: HttpReadOptions): Promise<{ status: number; body: string }> {
  const maxBytes = options.maxBytes ?? 1 << 20;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: HttpReadError | null, answer?: { status: number; body: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: options.method ?? 'GET',
      agent: options.agent ?? false,
      headers: options.headers ?? {},
      ...(target.protocol === 'https:' ? nodeTlsOptions(options.tls) : {}),
    });
    const seconds = `${Math.round(options.deadlineMs / 100) / 10}s`;
    const timer = setTimeout(
      () => finish(new HttpReadError(`no complete answer within ${seconds}`, 'deadline')),
      options.deadlineMs,
    );
    const onAbort = (): void => finish(new HttpReadError('interrupted', 'aborted'));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(
        error.code ?? '',
      );
      finish(
        new HttpReadError(error.code ?? error.message.split('\n')[0]!, refused ? 'unreachable' : 'broken', error.code),
      );
    });
    // A 101 to a request that asked for no upgrade: the socket is the server's now, and no body will ever end.
    request.on('upgrade', (response) =>
      finish(
        new HttpReadError(`answered HTTP ${response.statusCode} (a protocol switch) instead of a response`, 'broken'),
      ),
    );
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > maxBytes) finish(new HttpReadError(`answered more than ${maxBytes} bytes`, 'broken'));
      });
      response.on('error', () => finish(new HttpReadError('broke off while answering', 'broken')));
      response.on('aborted', () => finish(new HttpReadError('broke off while answering', 'broken')));
      response.on('end', () => finish(null, { status: response.statusCode ?? 0, body }));
    });
    request.end(options.body);
  });
}
