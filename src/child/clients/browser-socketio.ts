/**
 * `browser-socketio`: socket.io's own browser client (socket.io-client's
 * dist/ bundle) on pages of a headless Chromium, WebSocket transport only, no
 * reconnection, as the socketio client pins it. Everything else as `browser`.
 */
import type { HostedClientAdapter } from '../../shared/types/hosted-client-types.js';
import { runInBrowsers } from '../runtimes/browser/client-half-host.js';
import { BROWSER_CAPABILITIES, BROWSER_SETTINGS, browserAvailability, countPageConnection } from './browser.js';

export const browserSocketioClient: HostedClientAdapter = {
  name: 'browser-socketio',
  protocol: 'socket.io',
  runtime: 'node',
  capabilities: BROWSER_CAPABILITIES,
  settings: {
    ...BROWSER_SETTINGS,
    library: "socket.io-client's browser bundle",
    transports: 'websocket',
    reconnection: false,
  },
  probe: () => browserAvailability(),
  connect: (url, options) => countPageConnection('browser-socketio', url, options),
  runClientHalf: (host) => runInBrowsers(host, 'socket.io'),
};
