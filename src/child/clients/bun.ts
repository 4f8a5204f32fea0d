/** Bun's built-in WebSocket client; runs in a Bun child (in Node only probe() is called). */
import type { ClientAdapter, ClientTls } from '../../shared/types/adapter-types.js';
import { builtInWebSocket } from '../../shared/runtime-globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { connectBuiltIn } from './built-in-websocket.js';

export const bunClient: ClientAdapter = {
  name: 'bun',
  protocol: 'websocket',
  runtime: 'bun',
  capabilities: {
    wireTap: false,
    deflate: true,
    tls: true,
    tlsInsecure: true,
    tlsSession: false,
    pauseReading: false,
    handshakePhases: false,
    httpClient: true,
  },
  settings: {
    // Bun offers permessage-deflate unless told not to: the offer follows the cell.
    perMessageDeflate: 'off unless the cell asks (deflate=on)',
    binaryType: 'arraybuffer',
    tls: "when on: the WebSocket's tls option trusting the given CA, Bun's default versions and ciphers on BoringSSL",
  },
  probe: () => probeRuntime('bun'),
  connect: (url, options) =>
    connectBuiltIn(
      'bun',
      builtInWebSocket('bun'),
      url,
      {
        perMessageDeflate: options.deflate === true,
        ...bunTlsOption(options.tls),
        ...(options.protocols ? { protocols: options.protocols } : {}),
      },
      options,
    ),
};

/** Bun's WebSocket takes Node-style TLS options under `tls` (a Bun extension of the constructor). */
function bunTlsOption(tls: ClientTls | undefined): { tls?: { ca: string } | { rejectUnauthorized: false } } {
  if (!tls) return {};
  return { tls: tls.insecure ? { rejectUnauthorized: false } : { ca: tls.caPem } };
}
