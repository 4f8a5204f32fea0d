/**
 * Which charts a result gets: the generic ones for every scenario, plus the
 * scenario's own when it has a builder here. A builder returns nothing for
 * data its scenario did not record, so a chart never shows empty axes.
 */
import type { BenchResult } from '../../result-types.js';
import { scenarioViews, type ChartBuilder, type ChartSpec } from './common.js';
import { genericCharts } from './generic.js';
import { overTimeCharts } from './over-time.js';
import { echoCharts } from './echo.js';
import { pushVsPollCharts } from './push-vs-poll.js';
import { tickerOrdersCharts } from './ticker-orders.js';
import { chatCharts } from './chat.js';
import { fanoutCharts } from './fanout.js';
import { firehoseCharts } from './firehose.js';

export const SCENARIO_CHARTS: Record<string, ChartBuilder> = {
  echo: echoCharts,
  'push-vs-poll': pushVsPollCharts,
  'ticker-orders': tickerOrdersCharts,
  chat: chatCharts,
  fanout: fanoutCharts,
  firehose: firehoseCharts,
};

/** Charts per scenario, in the order the report shows them. */
export function buildCharts(result: BenchResult): Array<{ scenario: string; charts: ChartSpec[] }> {
  return scenarioViews(result).map((view) => ({
    scenario: view.scenario.name,
    charts: [...(SCENARIO_CHARTS[view.scenario.name]?.(view) ?? []), ...overTimeCharts(view), ...genericCharts(view)],
  }));
}

export type { ChartSpec } from './common.js';
