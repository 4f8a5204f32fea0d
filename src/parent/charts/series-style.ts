/**
 * How a chart tells its series (cells) apart, whatever their number: colour
 * by server and dash by client, so that 17 pairs need 5 colours and 5 dashes
 * rather than 17 colours from a palette of 10 (where `ws x ws` and
 * `bun x undici` drew the same blue). Cells of one pair that differ by a swept
 * parameter or a round get a panel each (a facet by variant). When servers or
 * clients outnumber the colours or dashes, every cell gets its own panel:
 * a panel's title names its one line, so any number of cells reads apart.
 */
import type { MeasuredCell } from '../../shared/types/result-types.js';
import { cellLabel, firstSeen, variantLabel, type ScenarioView } from './common.js';

/** Colours that read apart on white and in print (Tableau 10): one per server. */
const SERVER_COLOURS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
/** Dash patterns that read apart at a 1.5 px line: one per client, solid first. */
const CLIENT_DASHES: number[][] = [
  [1, 0],
  [5, 3],
  [1, 2],
  [4, 2, 1, 2],
  [1, 5],
  [9, 3],
];

/** The fields a styled row carries besides its own. */
export interface SeriesFields {
  /** The cell as legends and titles name it: `uws x ws payload=1kB`. */
  cell: string;
  server: string;
  client: string;
  /** The swept parameters (and the round, on the live page) that set the cell apart from others of its pair; '' when none. */
  variant: string;
}

export function seriesFields(view: ScenarioView, cell: MeasuredCell): SeriesFields {
  return { cell: cellLabel(view, cell), server: cell.server, client: cell.client, variant: variantLabel(view, cell) };
}

type Channel = {
  field: string;
  type: 'nominal';
  title: string | null;
  sort: string[];
  scale?: { domain: string[]; range: string[] | number[][] };
  legend?: null;
};

interface SeriesStyle {
  /** How series are told apart: by colour and dash in one panel, or one panel each. */
  by: 'server and client' | 'panel';
  color: Channel;
  /** Absent when each series has a panel of its own. */
  strokeDash?: Channel;
  /** One panel per value of this field: the variant (pairs repeat) or the cell (too many to colour). */
  facet?: { field: 'variant' | 'cell'; type: 'nominal'; title: null; sort: string[]; columns: number };
}

/** The encodings for rows that carry SeriesFields: one line per cell. */
export function seriesStyle(rows: readonly SeriesFields[]): SeriesStyle {
  const servers = firstSeen([...rows], (r) => r.server);
  const clients = firstSeen([...rows], (r) => r.client);
  const variants = firstSeen([...rows], (r) => r.variant);
  if (servers.length <= SERVER_COLOURS.length && clients.length <= CLIENT_DASHES.length) {
    return {
      by: 'server and client',
      color: {
        field: 'server',
        type: 'nominal',
        title: 'server',
        sort: servers,
        scale: { domain: servers, range: SERVER_COLOURS.slice(0, servers.length) },
      },
      strokeDash: {
        field: 'client',
        type: 'nominal',
        title: 'client',
        sort: clients,
        scale: { domain: clients, range: CLIENT_DASHES.slice(0, clients.length) },
      },
      ...(variants.length > 1
        ? { facet: { field: 'variant', type: 'nominal', title: null, sort: variants, columns: 2 } }
        : {}),
    };
  }
  const cells = firstSeen([...rows], (r) => r.cell);
  return {
    by: 'panel',
    color: { field: 'cell', type: 'nominal', title: null, sort: cells, legend: null },
    facet: { field: 'cell', type: 'nominal', title: null, sort: cells, columns: 4 },
  };
}

/** The line encodings of a style: colour, dash, and the facet channel when it has one (for a unit spec). */
export function seriesEncoding(
  style: SeriesStyle,
): Pick<SeriesStyle, 'color' | 'strokeDash'> & { facet?: SeriesStyle['facet'] } {
  return {
    color: style.color,
    ...(style.strokeDash ? { strokeDash: style.strokeDash } : {}),
    ...(style.facet ? { facet: style.facet } : {}),
  };
}

/** A caption's sentence on how the series read apart. */
export function styleNote(style: SeriesStyle): string {
  if (style.by === 'panel') return 'One panel per cell.';
  return `Colour is the server, dash the client${style.facet ? '; one panel per variant of a pair' : ''}.`;
}
