/**
 * `browser`: a real headless Chromium as the client. The scenario's client half
 * runs on pages, one share per page, with the browser's own WebSocket; the
 * client process serves the pages, keeps the books and reports like any other
 * (src/child/runtimes/browser/, docs/browser.md). connect() runs in the client process
 * only to count a connection a page opened: it opens nothing itself.
 */
import type { ClientConnection, ClientConnectOptions } from '../../shared/types/adapter-types.js';
import type { HostedClientAdapter } from '../../shared/types/hosted-client-types.js';
import type { Availability } from '../../shared/types/result-types.js';
import { PAGE_OPENING, type WithPageOpening } from '../runtimes/browser/page-bridge.js';
import { probeChromium } from '../runtimes/browser/chromium-binary.js';
import { runInBrowsers } from '../runtimes/browser/client-half-host.js';
import { undisclosedSession } from './tls-trust.js';
import { TotalOnlyPhases } from './socket-phases.js';

export const BROWSER_CAPABILITIES = {
  wireTap: false,
  // The browser offers permessage-deflate on every handshake; the server's setting decides.
  deflate: true,
  tls: false,
  tlsInsecure: false,
  tlsSession: false,
  pauseReading: false,
  handshakePhases: false,
  httpClient: false,
} as const;

/** Kept short: every result's environment carries them (docs/browser.md says the rest). */
export const BROWSER_SETTINGS = {
  browser: 'the system Chromium, headless, a new empty profile each',
  pages: 'one per browser, at most 250 connections each',
  perMessageDeflate: 'offered by the browser; on when the server accepts (deflate=on)',
  binaryType: 'arraybuffer',
  clock: 'page clock, offset to CLOCK_MONOTONIC by the quickest of 20 probes',
};

export const browserClient: HostedClientAdapter = {
  name: 'browser',
  protocol: 'websocket',
  runtime: 'node',
  capabilities: BROWSER_CAPABILITIES,
  settings: BROWSER_SETTINGS,
  probe: () => browserAvailability(),
  connect: (url, options) => countPageConnection('browser', url, options),
  runClientHalf: (host) => runInBrowsers(host, 'websocket'),
};

/** Available when a Chromium is found and says its version. */
export async function browserAvailability(): Promise<Availability> {
  const chromium = await probeChromium();
  return chromium.available
    ? { available: true, version: chromium.version }
    : { available: false, version: null, reason: chromium.reason };
}

/** The client process's hold on a connection a page opened (see page-bridge.ts). */
export async function countPageConnection(
  label: string,
  url: string,
  options: ClientConnectOptions,
): Promise<ClientConnection> {
  const opening = (options as ClientConnectOptions & WithPageOpening)[PAGE_OPENING];
  if (!opening)
    throw new Error(`the ${label} client opens its connections on its pages, never from the client process`);
  const phases = new TotalOnlyPhases('timed on the page');
  const held = await opening(options.onUnexpectedClose);
  phases.opened();
  const session = undisclosedSession(url, "a page cannot read its connection's TLS session");
  return {
    send: () => {
      throw new Error(`the ${label} client sends from its pages`);
    },
    bufferedAmountBytes: () => 0,
    extensions: () => held.extensions,
    tlsSession: () => session,
    handshakePhases: () => phases.result(),
    close: () => held.close(),
  };
}
