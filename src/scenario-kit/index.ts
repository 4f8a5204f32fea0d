/**
 * Everything a scenario file needs, and nothing that draws or reports: the
 * child processes that run scenario code load this, not the whole library.
 * Every export is listed by name; `wsbench` re-exports them all.
 */
export { defineScenario } from './define.js';
export { isScenario } from '../scenario-types.js';
export { latencyMetrics, total, rate, ALL_STATS } from './metric-helpers.js';
export type { LatencyMetricOptions, CounterMetricOptions } from './metric-helpers.js';
export { messageText } from './message-text.js';
export { openPaced, classifyConnectError, CONNECT_FAILURES } from './paced-connections.js';
export type { ConnectFailure, PacedOpenOptions } from './paced-connections.js';
export { sourceAddressCount, sourceAddressFor, localPortCount } from './source-addresses.js';
export { sleep, aborted, waitUntil } from './waiting.js';
export { FrameParser, OPCODE } from '../parsing/frame-parser.js';
export type { FrameParserEvents } from '../parsing/frame-parser.js';
export { openFileLimit } from '../open-file-limit.js';
