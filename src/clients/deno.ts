/** Deno's built-in WebSocket client (no permessage-deflate); runs in a Deno child (in Node only probe() is called). */
import type { ClientAdapter } from '../adapter-types.js';
import { builtInWebSocket } from '../runtimes/globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { connectBuiltIn } from './built-in-websocket.js';

export const denoClient: ClientAdapter = {
  name: 'deno',
  protocol: 'websocket',
  runtime: 'deno',
  capabilities: { wireTap: false, deflate: false },
  settings: { perMessageDeflate: 'not supported by Deno', binaryType: 'arraybuffer' },
  probe: () => probeRuntime('deno'),
  connect(url, options) {
    if (options.deflate) return Promise.reject(new Error('Deno cannot negotiate permessage-deflate'));
    return connectBuiltIn('deno', builtInWebSocket('deno'), url, undefined, options);
  },
};
