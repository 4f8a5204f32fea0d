/**
 * permessage-deflate as the Node stacks built on `ws` use it when a cell asks
 * (ws server and client, socket.io's engine.io on both ends): every message
 * compressed (threshold 0, as uWS and Bun do once it is on, instead of ws's
 * default 1024 bytes) at zlib level 6. Context takeover and window sizes are
 * left to the handshake (an explicit value there would make ws refuse the
 * offers of uWS and Bun); each cell records what the handshake settled on.
 */
export const WS_DEFLATE_OPTIONS = {
  threshold: 0,
  zlibDeflateOptions: { level: 6 },
} as const;

/** How the result records it, for every ws-based stack. */
export const WS_DEFLATE_SETTINGS = {
  perMessageDeflate: 'off unless the cell asks (deflate=on): every message compressed, zlib level 6',
  deflateThresholdBytes: WS_DEFLATE_OPTIONS.threshold,
} as const;
