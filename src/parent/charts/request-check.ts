/**
 * A chart request as a result file holds it is plain JSON: it may have the
 * wrong shape, or name a histogram no cell recorded, a metric the scenario
 * does not declare, a parameter no cell has, or a kind this version does not
 * draw. Before drawing, each request is checked against its kind's shape and
 * against the result; what can be drawn is, and every part that cannot is
 * said, so nothing is dropped in silence and no builder meets a field it did
 * not expect.
 */
import type { ChartKind, ChartRequest, HistogramRef } from '../../shared/types/declaration-types.js';
import type { ScenarioView } from './common.js';

/** The kinds this version draws, in the order the message lists them. */
const CHART_KINDS: readonly ChartKind[] = [
  'percentiles',
  'heatmap',
  'over-time',
  'grid',
  'by-parameter',
  'sizes',
  'cumulative',
  'resources',
  'offered-load',
];

interface CheckedRequest {
  /** The request with only what can be drawn; null when nothing can. */
  drawable: ChartRequest | null;
  /** Each part not drawn and why: `not drawn: ...` for the whole request, `"name" not drawn: ...` for a part. */
  problems: string[];
}

type Fields = Record<string, unknown>;

/** Checks `request` (any JSON) against its kind's shape and against what the view's cells hold. */
export function checkRequest(view: ScenarioView, request: unknown): CheckedRequest {
  const fields = (typeof request === 'object' && request !== null && !Array.isArray(request) ? request : {}) as Fields;
  const kind = fields.kind;
  if (typeof kind !== 'string' || !(CHART_KINDS as readonly string[]).includes(kind)) {
    return refuse(`this wsbench draws no chart of kind ${JSON.stringify(kind)} (it draws ${CHART_KINDS.join(', ')})`);
  }
  const check = new Checker(view, fields);
  const title = typeof fields.title === 'string' ? { title: fields.title } : {};
  let drawable: ChartRequest | null = null;
  switch (kind as ChartKind) {
    case 'percentiles': {
      const histograms = check.histogramRefs('histograms');
      if (histograms?.length) drawable = { kind: 'percentiles', histograms, ...title };
      break;
    }
    case 'heatmap': {
      const metrics = check.metrics('metrics', true);
      if (metrics?.length) drawable = { kind: 'heatmap', metrics, ...title };
      break;
    }
    case 'over-time': {
      const histogram = check.histogram('histogram', false);
      const rates = check.counterRates(check.metrics('rates', false));
      if (histogram !== undefined || rates?.length)
        drawable = {
          kind: 'over-time',
          ...(histogram !== undefined ? { histogram } : {}),
          ...(rates ? { rates } : {}),
          ...title,
        };
      else if (!check.failed && fields.histogram === undefined && fields.rates === undefined)
        check.whole('it names neither a "histogram" nor "rates"');
      break;
    }
    case 'grid': {
      const [rows, columns, histogram] = [
        check.parameter('rows'),
        check.parameter('columns'),
        check.histogram('histogram', true),
      ];
      const label = fields.label === undefined ? undefined : check.metric('label');
      if (rows !== undefined && columns !== undefined && histogram !== undefined)
        drawable = { kind: 'grid', rows, columns, histogram, ...(label !== undefined ? { label } : {}), ...title };
      break;
    }
    case 'by-parameter': {
      const parameter = check.parameter('parameter');
      const metrics = check.metrics('metrics', false);
      const histograms = check.histogramNames('histograms');
      if (parameter !== undefined && (metrics?.length || histograms?.length))
        drawable = {
          kind: 'by-parameter',
          parameter,
          ...(metrics ? { metrics } : {}),
          ...(histograms ? { histograms } : {}),
          ...title,
        };
      break;
    }
    case 'sizes': {
      const histogram = check.histogram('histogram', true);
      if (histogram !== undefined && check.holdsSizes(histogram)) drawable = { kind: 'sizes', histogram, ...title };
      break;
    }
    case 'cumulative': {
      const histogram = check.histogram('histogram', true);
      if (histogram !== undefined && check.holdsLatencies(histogram))
        drawable = { kind: 'cumulative', histogram, ...title };
      break;
    }
    case 'resources':
      drawable = { kind: 'resources', ...title };
      break;
    case 'offered-load': {
      const [parameter, histogram, delivered] = [
        check.parameter('parameter'),
        check.histogram('histogram', true),
        check.metric('delivered'),
      ];
      if (
        parameter !== undefined &&
        histogram !== undefined &&
        delivered !== undefined &&
        check.holdsLatencies(histogram)
      )
        drawable = { kind: 'offered-load', parameter, histogram, delivered, ...title };
      break;
    }
  }
  if (drawable === null && !check.failed) check.whole('nothing it names can be drawn');
  return { drawable, problems: check.problems };
}

function refuse(reason: string): CheckedRequest {
  return { drawable: null, problems: [`not drawn: ${reason}`] };
}

/** Reads a request's fields, noting each problem once. */
class Checker {
  readonly problems: string[] = [];
  /** True once a problem stopped the whole request. */
  failed = false;

  constructor(
    private readonly view: ScenarioView,
    private readonly fields: Fields,
  ) {}

  whole(reason: string): void {
    this.problems.push(`not drawn: ${reason}`);
    this.failed = true;
  }

  part(name: string, reason: string): void {
    this.problems.push(`${JSON.stringify(name)} not drawn: ${reason}`);
  }

  /** A field that must hold a name; a missing optional one is undefined without a problem. */
  private name(field: string, what: string, required: boolean): string | undefined {
    const value = this.fields[field];
    if (value === undefined && !required) return undefined;
    if (typeof value === 'string' && value !== '') return value;
    this.whole(`${JSON.stringify(field)} must be ${what} (it is ${describe(value)})`);
    return undefined;
  }

  /** A field that must hold a list of names. */
  private names(field: string, what: string, required: boolean): string[] | undefined {
    const value = this.fields[field];
    if (value === undefined && !required) return undefined;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value as string[];
    this.whole(`${JSON.stringify(field)} must be a list of ${what} (it is ${describe(value)})`);
    return undefined;
  }

  /** Whether the checks of what exists apply: a scenario with no measured cell has nothing to draw anyway. */
  private get measured(): boolean {
    return this.view.cells.length > 0;
  }

  private recorded(name: string, side: 'client' | 'server'): boolean {
    return this.view.cells.some(
      (c) => name in (side === 'server' ? c.measurements.serverHistograms : c.measurements.histograms),
    );
  }

  /** Over-time latency is read off the time series, whose points carry each histogram's interval statistics. */
  private inTimeSeries(name: string): boolean {
    return this.view.cells.some((c) => c.measurements.timeSeries?.points.some((p) => name in p.latency) ?? false);
  }

  /** Keeps the names `why` finds nothing wrong with; one problem per name dropped, or for the whole request when none is left. */
  private keep<T>(items: T[], label: (item: T) => string, why: (item: T) => string | null): T[] {
    const kept = items.filter((item) => why(item) === null);
    if (kept.length === 0 && items.length > 0) {
      this.whole(items.map(why).join('; '));
      return [];
    }
    for (const item of items) {
      const reason = why(item);
      if (reason !== null) this.part(label(item), reason);
    }
    return kept;
  }

  /** A required histogram missing from every cell stops the request; an optional one (over time) only drops its part. */
  histogram(field: string, required: boolean): string | undefined {
    const name = this.name(field, 'a histogram name', required);
    if (name === undefined || !this.measured || this.recorded(name, 'client') || (!required && this.inTimeSeries(name)))
      return name;
    const reason = `no cell recorded a histogram ${JSON.stringify(name)}`;
    if (required) this.whole(reason);
    else this.part(name, reason);
    return undefined;
  }

  histogramNames(field: string): string[] | undefined {
    const names = this.names(field, 'histogram names', false);
    if (names === undefined) return undefined;
    return this.keep(
      names,
      (n) => n,
      (n) =>
        !this.measured || this.recorded(n, 'client') ? null : `no cell recorded a histogram ${JSON.stringify(n)}`,
    );
  }

  histogramRefs(field: string): HistogramRef[] | undefined {
    const value = this.fields[field];
    const valid = (ref: unknown): ref is HistogramRef =>
      (typeof ref === 'string' && ref !== '') ||
      (typeof ref === 'object' &&
        ref !== null &&
        typeof (ref as Fields).histogram === 'string' &&
        ['client', 'server'].includes((ref as Fields).side as string));
    if (!Array.isArray(value) || value.length === 0 || !value.every(valid)) {
      this.whole(
        `${JSON.stringify(field)} must be a list of histogram names or { histogram, side } (it is ${describe(value)})`,
      );
      return undefined;
    }
    const nameOf = (ref: HistogramRef): string => (typeof ref === 'string' ? ref : ref.histogram);
    const sideOf = (ref: HistogramRef): 'client' | 'server' => (typeof ref === 'string' ? 'client' : ref.side);
    return this.keep(value, nameOf, (ref) =>
      !this.measured || this.recorded(nameOf(ref), sideOf(ref))
        ? null
        : `no cell recorded a ${sideOf(ref) === 'server' ? 'server ' : ''}histogram ${JSON.stringify(nameOf(ref))}`,
    );
  }

  metric(field: string): string | undefined {
    const key = this.name(field, 'a metric key', true);
    if (key === undefined || Object.hasOwn(this.view.scenario.metrics, key)) return key;
    this.part(key, `the scenario declares no metric ${JSON.stringify(key)}`);
    return undefined;
  }

  metrics(field: string, required: boolean): string[] | undefined {
    const keys = this.names(field, 'metric keys', required);
    if (keys === undefined) return undefined;
    return this.keep(
      keys,
      (k) => k,
      (k) =>
        Object.hasOwn(this.view.scenario.metrics, k) ? null : `the scenario declares no metric ${JSON.stringify(k)}`,
    );
  }

  /** Only a client counter's rate can be read off the time series, which holds client counters. */
  counterRates(keys: string[] | undefined): string[] | undefined {
    if (keys === undefined) return undefined;
    return this.keep(
      keys,
      (k) => k,
      (k) => {
        const source = this.view.scenario.metrics[k]!.source;
        const ok = 'counter' in source && source.as === 'rate' && (source.side ?? 'client') === 'client';
        return ok ? null : 'only the rate of a client counter can be drawn over time';
      },
    );
  }

  parameter(field: string): string | undefined {
    const name = this.name(field, 'a parameter name', true);
    if (
      name === undefined ||
      Object.hasOwn(this.view.scenario.parameters, name) ||
      this.view.cells.some((c) => name in c.params) ||
      !this.measured
    )
      return name;
    this.whole(`no cell has a parameter ${JSON.stringify(name)}`);
    return undefined;
  }

  /** A `sizes` chart draws a histogram of bytes; one of latencies is a mistake of the declaration. */
  holdsSizes(histogram: string): boolean {
    const units = new Set(
      this.view.cells.flatMap((c) =>
        histogram in c.measurements.histograms ? [c.measurements.histograms[histogram]!.unit] : [],
      ),
    );
    if (!units.has('us')) return true;
    if (units.has('bytes')) return true;
    this.whole(`histogram ${JSON.stringify(histogram)} holds latencies, not sizes`);
    return false;
  }

  /** A `cumulative` chart's x axis is time: a histogram of sizes is a mistake of the declaration. */
  holdsLatencies(histogram: string): boolean {
    const units = new Set(
      this.view.cells.flatMap((c) =>
        histogram in c.measurements.histograms ? [c.measurements.histograms[histogram]!.unit] : [],
      ),
    );
    if (!units.has('bytes') || units.has('us')) return true;
    this.whole(`histogram ${JSON.stringify(histogram)} holds sizes, not latencies`);
    return false;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list of other things';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
