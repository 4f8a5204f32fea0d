/**
 * Charts of a capacity result: the capacity of each server stack as bars, and
 * for every SLO clause the value it compared at each step against the varied
 * count, one line per server, with the clause's bound drawn in. Steps whose
 * load generator saturated (invalid: they do not count) are points off the
 * line, in their own shape. Pure functions of the result JSON, drawn and
 * written like every other chart of the report.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CapacitySection, SloClause } from '../../shared/types/capacity-types.js';
import type { CapacityResult, ScenarioInfo } from '../../shared/types/result-types.js';
import { clauseHolds } from '../slo/grammar.js';
import { frame, type DrawnChart, type ScenarioView } from './common.js';
import { vegaString } from '../escape/vega.js';
import { seriesStyle } from './series-style.js';

/** A capacity chart before the report names it: `kind` becomes the name's suffix. */
interface CapacityChart extends DrawnChart {
  kind: string;
}

/** How a step is drawn against one clause, and named in the legend. */
const MARKS = {
  held: { label: 'held this clause', shape: 'circle' },
  broke: { label: 'broke this clause', shape: 'cross' },
  invalid: { label: 'invalid: load generator saturated', shape: 'triangle-up' },
} as const;

export function capacityCharts(view: ScenarioView, result: CapacityResult): CapacityChart[] {
  const section = result.capacity;
  const bars = barsChart(view, section);
  const curves = section.slo.clauses.flatMap((clause, i) => {
    const curve = clauseChart(view, section, clause, i);
    return curve ? [curve] : [];
  });
  return [...(bars ? [bars] : []), ...curves];
}

function pairOf(server: { server: string; client: string }): string {
  return `${server.server} x ${server.client}`;
}

function barsChart(view: ScenarioView, section: CapacitySection): CapacityChart | null {
  const rows = section.servers
    .filter((s) => s.status === 'measured')
    .map((s) => ({
      pair: pairOf(s),
      capacity: s.capacity,
      label: s.end === 'max' ? `>= ${s.capacity}` : s.cannotTell ? `${s.capacity}?` : String(s.capacity),
    }));
  if (rows.length === 0) return null;
  const vary = section.settings.vary;
  const x = {
    field: 'pair',
    type: 'nominal' as const,
    title: 'server x client',
    sort: rows.map((r) => r.pair),
    axis: { labelAngle: 0 },
  };
  const y = { field: 'capacity', type: 'quantitative' as const, title: `${vary} within the SLO` };
  return {
    kind: 'capacity',
    caption: `The most ${vary} each server stack held within ${section.slo.text}; ">=" where the search reached its maximum, "?" where the load generator saturated first.`,
    spec: {
      ...frame(view, `capacity within ${section.slo.text}`, `The largest ${vary} within the SLO, per server stack.`),
      data: { values: rows },
      // Wide enough that the longest 'server x client' label stays under its own bar.
      width: { step: Math.max(80, 8 * Math.max(...rows.map((r) => r.pair.length)) + 16) },
      height: 240,
      layer: [
        { mark: 'bar', encoding: { x, y, color: { field: 'pair', type: 'nominal', legend: null } } },
        { mark: { type: 'text', dy: -6 }, encoding: { x, y, text: { field: 'label', type: 'nominal' } } },
      ],
    } as TopLevelSpec,
  };
}

/** The value clause `index` compared at every step, against the count, with the clause's bound. */
function clauseChart(
  view: ScenarioView,
  section: CapacitySection,
  clause: SloClause,
  index: number,
): CapacityChart | null {
  const rows = section.servers.flatMap((s) =>
    s.steps.flatMap((step) => {
      const value = step.sloValues[index] ?? null;
      // A refused count has no value; an interrupted step's is a cut window's, which neither held nor broke.
      if (value === null || step.outcome === 'refused' || step.outcome === 'interrupted') return [];
      const mark = step.outcome === 'invalid' ? MARKS.invalid : clauseHolds(clause, value) ? MARKS.held : MARKS.broke;
      return [
        {
          pair: pairOf(s),
          cell: pairOf(s),
          server: s.server,
          client: s.client,
          variant: '',
          count: step.count,
          value,
          outcome: mark.label,
        },
      ];
    }),
  );
  if (rows.length === 0) return null;
  const vary = section.settings.vary;
  const what = clauseTitle(view.scenario, clause);
  const logY = rows.every((r) => r.value > 0) && clause.limit > 0;
  const unit = clause.unit === 'count' ? '' : clause.unit;
  const x = {
    field: 'count',
    type: 'quantitative' as const,
    scale: { type: 'log' as const },
    title: `${vary} (log scale)`,
  };
  const yTitle = [unit, logY ? 'log scale' : ''].filter(Boolean).join(', ');
  const y = {
    field: 'value',
    type: 'quantitative' as const,
    scale: { type: logY ? ('log' as const) : ('linear' as const) },
    title: yTitle ? `${what} (${yTitle})` : what,
  };
  // Colour the server and dash the client (a colour per pair only past the palette).
  const style = seriesStyle(rows);
  const color =
    style.by === 'server and client'
      ? style.color
      : { field: 'pair', type: 'nominal' as const, title: 'server x client' };
  const dash = style.by === 'server and client' ? { strokeDash: style.strokeDash! } : {};
  const marks = Object.values(MARKS);
  const shape = {
    field: 'outcome',
    type: 'nominal' as const,
    title: 'step',
    scale: { domain: marks.map((m) => m.label), range: marks.map((m) => m.shape) },
  };
  return {
    kind: `capacity-${clause.label}`,
    caption:
      `${what} at every step of the search against ${vary}, one line per server stack through the steps that count; ` +
      `the dashed line is the SLO's bound (${clause.text}); triangles are steps whose load generator saturated, which do not count.`,
    spec: {
      ...frame(
        view,
        `${clause.label} by ${vary}, SLO ${clause.text}`,
        `The value of the SLO clause ${clause.text} at each capacity step against ${vary}.`,
      ),
      width: 440,
      height: 260,
      layer: [
        {
          data: { values: rows },
          layer: [
            // The line joins the steps that count, in count order; invalid ones are points only.
            {
              transform: [{ filter: `datum.outcome !== ${vegaString(MARKS.invalid.label)}` }],
              mark: 'line',
              encoding: { x, y, color, ...dash, order: { field: 'count', type: 'quantitative' } },
            },
            { mark: { type: 'point', filled: true, size: 60 }, encoding: { x, y, color, shape } },
          ],
        },
        {
          data: { values: [{ limit: clause.limit, text: `SLO ${clause.text}` }] },
          layer: [
            {
              mark: { type: 'rule', strokeDash: [4, 4], color: '#c00' },
              encoding: { y: { field: 'limit', type: 'quantitative' } },
            },
            {
              mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#c00' },
              encoding: { y: { field: 'limit', type: 'quantitative' }, x: { value: 0 }, text: { field: 'text' } },
            },
          ],
        },
      ],
    } as TopLevelSpec,
  };
}

/** What a clause compares, as the table heads it: "p99 ms" for p99, "errors" for errors, a metric's header. */
function clauseTitle(scenario: ScenarioInfo, clause: SloClause): string {
  if (clause.kind === 'errors') return 'errors (sum of the errors metrics)';
  const info = clause.metrics.length === 1 ? scenario.metrics[clause.metrics[0]!] : undefined;
  const header = info?.header ?? clause.label;
  return info && header.endsWith(` ${info.unit}`) ? header.slice(0, -info.unit.length - 1) : header;
}
