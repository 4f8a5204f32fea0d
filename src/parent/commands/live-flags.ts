/**
 * What `run` makes of the live-view flags (declared in flags/watch-flags.ts):
 * --dashboard [host:port], --metrics-listen host:port and --metrics-linger,
 * checked before anything starts; a bind that fails is one line and exit
 * code 2, before any process.
 */
import { UsageError } from '../../shared/types/errors.js';
import { parseDurationMs } from '../../shared/parsing/units.js';
import type { RunEvent } from '../engine/events.js';
import { LiveBindError, LiveViews, type LiveViewOptions } from '../live/live-views.js';
import { exposureWarning, notAnAddress, parseListenAddress, type ListenAddress } from '../../shared/listen-address.js';
import { terminalText } from '../escape/terminal.js';
import { DEFAULT_METRICS_LINGER_MS, LOOPBACK } from './flags/watch-flags.js';

/** A linger longer than this is a typo, not a plan. */
const MAX_METRICS_LINGER_MS = 3_600_000;

export interface LiveFlags {
  dashboard?: string | true;
  metricsListen?: string;
  metricsLinger?: string;
}

/** The flags as the views' options; throws UsageError naming the flag. */
function liveOptionsFromFlags(flags: LiveFlags): LiveViewOptions {
  if (flags.metricsLinger !== undefined && flags.metricsListen === undefined)
    throw new UsageError('--metrics-linger: only with --metrics-listen');
  return {
    dashboard:
      flags.dashboard === undefined
        ? null
        : flags.dashboard === true
          ? { host: LOOPBACK, port: 0 }
          : readAddress('--dashboard', flags.dashboard),
    metrics: flags.metricsListen === undefined ? null : readAddress('--metrics-listen', flags.metricsListen),
    metricsLingerMs: flags.metricsLinger === undefined ? DEFAULT_METRICS_LINGER_MS : readLinger(flags.metricsLinger),
  };
}

/**
 * "HOST:PORT", "[v6]:PORT", ":PORT" or "PORT"; without a host, loopback (another address is only ever bound when named).
 * HOST is an IP address or localhost: a name is refused by its spelling, never looked up.
 */
function readAddress(flag: '--dashboard' | '--metrics-listen', text: string): ListenAddress {
  const read = parseListenAddress(text, LOOPBACK, true);
  const example = flag === '--dashboard' ? 8080 : 9464;
  if ('problem' in read) {
    if (read.problem === 'name')
      throw new UsageError(`${flag}: ${notAnAddress(read.host!)} (e.g. ${LOOPBACK}:${example})`);
    throw new UsageError(
      `${flag}: "${text}" is not HOST:PORT (e.g. ${LOOPBACK}:${example}, or :0 for a free loopback port)`,
    );
  }
  return read;
}

function readLinger(text: string): number {
  const ms = text.trim() === '0' ? 0 : parseDurationMs(text);
  if (ms === null || ms > MAX_METRICS_LINGER_MS)
    throw new UsageError(`--metrics-linger: "${text}" is not a duration from 0s to 1h (e.g. 15s)`);
  return ms;
}

/** The views the flags ask for, not yet listening. */
export function liveViews(flags: LiveFlags, stderr: NodeJS.WritableStream = process.stderr): LiveViews {
  return new LiveViews(liveOptionsFromFlags(flags), (line) => stderr.write(`${terminalText(line)}\n`));
}

/** Binds the views and prints where they are; a failed bind is a UsageError naming the flag. */
export async function startLiveViews(views: LiveViews, stderr: NodeJS.WritableStream = process.stderr): Promise<void> {
  if (!views.enabled) return;
  try {
    await views.listen();
  } catch (error) {
    if (error instanceof LiveBindError)
      throw new UsageError(`${error.option === 'dashboard' ? '--dashboard' : '--metrics-listen'}: ${error.problem}`);
    throw error;
  }
  if (views.dashboardUrl) stderr.write(`dashboard: ${views.dashboardUrl}\n`);
  if (views.metricsUrl) stderr.write(`metrics: ${views.metricsUrl}\n`);
  for (const { option, address } of views.bound) {
    const warning = exposureWarning(option === 'dashboard' ? '--dashboard' : '--metrics-listen', address);
    if (warning) stderr.write(`${warning}\n`);
  }
}

/** One listener for both the progress line and the views. */
export function withLiveViews(views: LiveViews, onEvent: (event: RunEvent) => void): (event: RunEvent) => void {
  if (!views.enabled) return onEvent;
  return (event) => {
    onEvent(event);
    views.onEvent(event);
  };
}
