/**
 * Binding and closing the live views' HTTP servers: a bind that fails says why
 * in words a person can act on, and a close never waits past its deadline for
 * a page or a scraper that keeps its connection open.
 */
import type { Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { hostText, notAnAddress, type ListenAddress } from '../../shared/listen-address.js';

/** Why a bind failed, in words; the caller names its flag in front. */
export class BindError extends Error {}

/** Listens on `address`; resolves with the address bound (the port chosen when 0 was asked). */
export function listenOn(server: Server, address: ListenAddress): Promise<ListenAddress> {
  // Node would look a name up before binding: only an address is bound, so nothing is ever resolved.
  if (isIP(address.host) === 0) return Promise.reject(new BindError(notAnAddress(address.host)));
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(new BindError(bindProblem(error, address)));
    };
    const onListening = (): void => {
      server.off('error', onError);
      const bound = server.address() as AddressInfo;
      resolve({ host: address.host, port: bound.port });
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address.port, address.host);
  });
}

function bindProblem(error: NodeJS.ErrnoException, { host, port }: ListenAddress): string {
  const where = `${hostText(host)}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${where} is in use (port 0 picks a free one)`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine`;
    case 'EACCES':
      return `${where}: ports below 1024 need privileges`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}

/** Stops accepting, then drops whatever connection is still open at the deadline. */
export function closeWithin(server: Server, deadlineMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, deadlineMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Idle keep-alive connections hold close() open for no reason.
    server.closeIdleConnections();
  });
}
