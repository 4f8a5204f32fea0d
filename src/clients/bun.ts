/** Bun's built-in WebSocket client; runs in a Bun child (in Node only probe() is called). */
import type { ClientAdapter } from '../adapter-types.js';
import { builtInWebSocket } from '../runtimes/globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { connectBuiltIn } from './built-in-websocket.js';

export const bunClient: ClientAdapter = {
  name: 'bun',
  protocol: 'websocket',
  runtime: 'bun',
  capabilities: { wireTap: false, deflate: true },
  settings: {
    // Bun offers permessage-deflate unless told not to: the offer follows the cell.
    perMessageDeflate: 'off unless the cell asks (deflate=on)',
    binaryType: 'arraybuffer',
  },
  probe: () => probeRuntime('bun'),
  connect: (url, options) => connectBuiltIn('bun', builtInWebSocket('bun'), url, { perMessageDeflate: options.deflate === true }, options),
};
