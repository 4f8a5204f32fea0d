/** Deno's built-in WebSocket client (no permessage-deflate); runs in a Deno child (in Node only probe() is called). */
import type { ClientAdapter, ClientTls } from '../../shared/types/adapter-types.js';
import { builtInWebSocket, denoApi } from '../../shared/runtime-globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { connectBuiltIn } from './built-in-websocket.js';

export const denoClient: ClientAdapter = {
  name: 'deno',
  protocol: 'websocket',
  runtime: 'deno',
  // Deno skips certificate checks only for a whole process started with --unsafely-ignore-certificate-errors.
  capabilities: {
    wireTap: false,
    deflate: false,
    tls: true,
    tlsInsecure: false,
    tlsSession: false,
    pauseReading: false,
    handshakePhases: false,
    httpClient: true,
  },
  settings: {
    perMessageDeflate: 'not supported by Deno',
    binaryType: 'arraybuffer',
    tls: "when on: a Deno.HttpClient whose caCerts add the given CA to Deno's built-in roots, rustls' default versions and ciphers",
  },
  probe: () => probeRuntime('deno'),
  async connect(url, options) {
    if (options.deflate) throw new Error('Deno cannot negotiate permessage-deflate');
    if (options.tls?.insecure) throw new Error("Deno's WebSocket cannot skip certificate verification");
    const socketOptions = {
      ...denoSocketOptions(options.tls),
      ...(options.protocols ? { protocols: options.protocols } : {}),
    };
    return connectBuiltIn(
      'deno',
      builtInWebSocket('deno'),
      url,
      Object.keys(socketOptions).length > 0 ? socketOptions : undefined,
      options,
    );
  },
};

/** One HTTP client per CA for the life of the process: Deno's WebSocket opens its connection through it. */
const httpClients = new Map<string, unknown>();

function denoSocketOptions(tls: ClientTls | undefined): { client: unknown } | undefined {
  if (!tls?.caPem) return undefined;
  const deno = denoApi();
  if (!deno) throw new Error('the deno client runs under Deno only');
  let client = httpClients.get(tls.caPem);
  if (!client) {
    client = deno.createHttpClient({ caCerts: [tls.caPem] });
    httpClients.set(tls.caPem, client);
  }
  return { client };
}
