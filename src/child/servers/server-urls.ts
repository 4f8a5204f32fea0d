import { hostText } from '../../shared/listen-address.js';

/** The addresses a listening server reports, in one place so the TLS schemes follow the same rule on every stack. */
interface ServerUrls {
  url: string;
  httpUrl: string;
}

/**
 * ws://host:port/ (wss:// with TLS) for a WebSocket server; a socket.io server's
 * URL is its HTTP origin, which socket.io-client upgrades itself. The HTTP routes
 * are served on the same port, over TLS too when it is on.
 */
export function serverUrls(
  host: string,
  port: number,
  { tls, socketio = false }: { tls: boolean; socketio?: boolean },
): ServerUrls {
  const httpUrl = `${tls ? 'https' : 'http'}://${hostText(host)}:${port}`;
  return { url: socketio ? httpUrl : `${tls ? 'wss' : 'ws'}://${hostText(host)}:${port}/`, httpUrl };
}
