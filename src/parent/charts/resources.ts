/**
 * `resources`: what the server process cost during the window, per cell:
 * mean CPU (bar) with its highest sample (tick), and peak resident memory.
 */
import { cellLabel, firstSeen, frame, round4, titleOf, type DrawnChart, type ScenarioView } from './common.js';

const MIB = 1024 * 1024;

export function resourcesChart(view: ScenarioView, request: { title?: string }): DrawnChart[] {
  const values = view.cells.flatMap((cell) => {
    const server = cell.resources.server;
    if (!server) return [];
    return [
      {
        cell: cellLabel(view, cell),
        cpuMean: round4(server.cpuPercent.mean),
        cpuMax: round4(server.cpuPercent.max),
        rssMaxMiB: round4(server.rssBytes.max / MIB),
      },
    ];
  });
  if (values.length === 0) return [];
  const y = { field: 'cell', type: 'nominal', title: 'cell', sort: firstSeen(values, (v) => v.cell) } as const;
  const color = { field: 'cell', type: 'nominal', legend: null } as const;
  return [
    {
      caption:
        'Server process during the window: mean CPU (bar) and its highest sample (tick), and peak resident memory.',
      spec: {
        ...frame(
          view,
          titleOf(request.title, 'server cost'),
          'Server CPU in percent of one core (mean bar, max tick) and peak RSS in MiB.',
        ),
        data: { values },
        hconcat: [
          {
            width: 260,
            height: { step: 18 },
            layer: [
              {
                mark: 'bar',
                encoding: {
                  y,
                  x: { field: 'cpuMean', type: 'quantitative', title: 'server CPU (% of one core)' },
                  color,
                },
              },
              {
                mark: { type: 'tick', color: 'black', thickness: 2 },
                encoding: { y, x: { field: 'cpuMax', type: 'quantitative' } },
              },
            ],
          },
          {
            width: 260,
            height: { step: 18 },
            mark: 'bar',
            encoding: {
              y: { ...y, axis: null },
              x: { field: 'rssMaxMiB', type: 'quantitative', title: 'server peak RSS (MiB)' },
              color,
            },
          },
        ],
      },
    },
  ];
}
