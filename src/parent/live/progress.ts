/**
 * Progress on stderr, a listener of run() events. `tty` redraws one line for a
 * person watching: the cell, time in its window and left of it, and live rates
 * of the metrics the scenario declares as live (role primary-rate or progress,
 * source a client counter's rate). `lines` prints one plain line per cell start
 * and end, for CI logs. `off` prints nothing. The line is built by
 * `progressLine`, a pure function, so what it says is testable without a terminal.
 */
import type { Writable } from 'node:stream';
import type { MetricInfo, ParamValues } from '../../shared/types/declaration-types.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import type { RunEvent } from '../engine/events.js';
import { parameterText } from '../parameter-labels.js';
import { terminalText } from '../escape/terminal.js';

/** How progress is shown: a redrawn line on a terminal (`tty`), one line per event (`lines`), or not at all. */
export type ProgressMode = 'tty' | 'lines' | 'off';

/** The terminal's progress of a run: give `onEvent` the run's events, and call `done()` at the end. */
export interface Progress {
  onEvent(event: RunEvent): void;
  /** Clears the live line (tty); call once the run is over. */
  done(): void;
}

/** A declared metric shown live: a client counter's rate. */
export interface LiveRate {
  key: string;
  header: string;
  counter: string;
  scale: number;
}

interface ProgressState {
  label: string;
  /** Window length, undefined when the window ends with the clients. */
  windowMs: number | undefined;
  cellStartedAt: number;
  /** When the window-open event came; null while connecting. */
  windowOpenedAt: number | null;
  /** The live rates over the last tick interval; null before the first tick. */
  rates: Array<{ header: string; perSec: number | null }>;
}

/** Live rates: metrics with role primary-rate or progress whose source is a client counter's rate. */
export function liveRates(scenario: ScenarioInfo): LiveRate[] {
  return Object.entries(scenario.metrics).flatMap(([key, info]: [string, MetricInfo]) => {
    const source = info.source;
    if ((info.role !== 'primary-rate' && info.role !== 'progress') || !('counter' in source)) return [];
    if (source.as !== 'rate' || source.side === 'server') return [];
    return [{ key, header: info.header, counter: source.counter, scale: source.scale ?? 1 }];
  });
}

/**
 * One reading of the clock gives both times, so they always add up to the
 * window: while connecting, time since the cell started; once the window is
 * open, time in the window and time left of it (whole seconds, floor and
 * ceiling: 1s + 2s left, then 2s + 1s left).
 */
export function progressLine(state: ProgressState, now: number): string {
  const parts = [state.label];
  if (state.windowOpenedAt === null) parts.push(`connecting ${seconds(now - state.cellStartedAt)}s`);
  else {
    const inWindowMs = Math.max(0, now - state.windowOpenedAt);
    if (state.windowMs === undefined) parts.push(`${seconds(inWindowMs)}s`);
    else if (inWindowMs < state.windowMs)
      parts.push(`${seconds(inWindowMs)}s`, `${Math.ceil((state.windowMs - inWindowMs) / 1000)}s left`);
    else parts.push(`${seconds(state.windowMs)}s`, 'wrapping up');
  }
  for (const rate of state.rates) if (rate.perSec !== null) parts.push(`${formatRate(rate.perSec)} ${rate.header}`);
  return parts.join('  ');
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

function formatRate(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(Math.abs(value) >= 10 ? 1 : 2);
}

/** A Progress that writes to `stream` (stderr, as the CLI does) in `mode`. */
export function createProgress(stream: Writable, mode: ProgressMode, clock: () => number = Date.now): Progress {
  if (mode === 'off') return { onEvent() {}, done() {} };
  let scenario: ScenarioInfo | null = null;
  let repeat = 1;
  let rates: LiveRate[] = [];
  let state: ProgressState | null = null;
  let last: { at: number; counters: Record<string, number> } | null = null;
  const redraw = (now: number): void => {
    if (mode === 'tty' && state) stream.write(`\r\x1b[K${progressLine(state, now)}`);
  };
  const head = (event: Extract<RunEvent, { type: 'cell-start' | 'cell-end' }>): string => {
    const round = repeat > 1 ? ` round ${event.round + 1}/${repeat}` : '';
    const params = paramsText(scenario, event.params);
    return terminalText(
      `[${event.index + 1}/${event.total}]${round} ${event.scenario} ${event.server} x ${event.client}${params ? ` ${params}` : ''}`,
    );
  };
  return {
    onEvent(event) {
      const now = clock();
      switch (event.type) {
        case 'run-start':
          scenario = event.scenario;
          repeat = event.repeat;
          rates = liveRates(event.scenario);
          return;
        case 'cell-start':
          state = {
            label: head(event),
            windowMs: event.windowMs,
            cellStartedAt: now,
            windowOpenedAt: null,
            rates: rates.map((r) => ({ header: terminalText(r.header), perSec: null })),
          };
          last = null;
          if (mode === 'lines') stream.write(`${state.label}: started\n`);
          else stream.write(`\r\x1b[K${state.label}  starting`);
          return;
        case 'window-open':
          if (!state) return;
          state.windowOpenedAt = now;
          // Counters are cumulative from the window's opening: they start at 0 now.
          last = { at: now, counters: {} };
          redraw(now);
          return;
        case 'tick':
          if (!state) return;
          if (last && now > last.at) {
            const previous = last;
            state.rates = rates.map((r) => {
              const value = event.counters[r.counter];
              const moved = value === undefined ? null : value - (previous.counters[r.counter] ?? 0);
              return {
                header: terminalText(r.header),
                perSec: moved === null ? null : (moved * r.scale * 1000) / (now - previous.at),
              };
            });
          }
          last = { at: now, counters: event.counters };
          redraw(now);
          return;
        case 'cell-end': {
          const took = state ? ` in ${((now - state.cellStartedAt) / 1000).toFixed(1)}s` : '';
          const outcome = `${event.status}${event.reason ? ` (${terminalText(event.reason.split('\n')[0]!)})` : ''}${took}`;
          stream.write(mode === 'lines' ? `${head(event)}: ${outcome}\n` : `\r\x1b[K${head(event)}: ${outcome}\n`);
          state = null;
          last = null;
          return;
        }
        case 'look':
          if (event.nextRounds !== null) repeat = event.nextRounds;
          stream.write(`${mode === 'tty' ? '\r\x1b[K' : ''}${lookLine(event)}\n`);
          return;
      }
    },
    done() {
      if (mode === 'tty') stream.write('\r\x1b[K');
    },
  };
}

/** `look after 3 rounds (intervals at 98.8 %): 4 of 10 undecided; 3 more rounds, next look after 6`. */
function lookLine(event: Extract<RunEvent, { type: 'look' }>): string {
  const { look } = event;
  const level = `${(look.level * 100).toFixed(1)} %`;
  const open = look.undecided.length;
  const said =
    open === 0
      ? `all ${look.asked} rankings and verdicts decided`
      : `${open} of ${look.asked} undecided (${terminalText(look.undecided[0]!)}${open > 1 ? ', ...' : ''})`;
  const next =
    event.nextRounds === null
      ? open === 0
        ? '; done'
        : '; no room in the budget for another look'
      : `; next look after ${event.nextRounds} rounds`;
  return `look after ${look.rounds} rounds (intervals at ${level}): ${said}${next}`;
}

/** Parameters that differ from their declared default, with units: `connections=100 payload=4KiB`. */
function paramsText(scenario: ScenarioInfo | null, params: ParamValues): string {
  return Object.entries(params)
    .filter(([name, value]) => scenario?.parameters[name]?.default !== value)
    .map(([name, value]) => parameterText(name, scenario?.parameters[name], value))
    .join(' ');
}
