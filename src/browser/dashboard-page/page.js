// The dashboard page: draws each snapshot wsbench pushes on /events (server-sent
// events). It fetches nothing else and polls nothing; charts are Vega-Lite specs
// built by wsbench's report builders, compiled and drawn here by Vega and
// Vega-Lite's browser builds. Text from the run is set as text, never as HTML.
/* global vega, vegaLite */
'use strict';

const $ = (id) => document.getElementById(id);
/** Drawn charts by name: the Vega view and its spec without data, to tell a data update from a new chart. */
const charts = new Map();

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function row(cells, className) {
  const tr = document.createElement('tr');
  for (const c of cells) tr.append(c);
  if (className) tr.className = className;
  return tr;
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

function badge(element, status) {
  element.textContent = status;
  element.className = `badge s-${status}`;
}

function number(value, digits) {
  if (value === null || value === undefined) return 'n/a';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits ?? (Math.abs(value) >= 10 ? 1 : 2));
}

function seconds(value) {
  return value === null ? '' : `${Math.floor(value)} s`;
}

function clock(epochMs) {
  return new Date(epochMs).toLocaleTimeString('en-GB', { hour12: false });
}

function renderRun(snapshot) {
  const run = snapshot.run;
  $('scenario').textContent = run.scenario ?? 'waiting for the run';
  $('description').textContent = run.description;
  badge($('run-status'), run.status);
  $('run-elapsed').textContent = run.scenario ? `${seconds(run.elapsedS)} since the start` : '';
  $('shard').textContent = run.shard ? `shard ${run.shard.index} of ${run.shard.count} (run ${run.shard.runId})` : '';
}

function renderCells(snapshot) {
  const currentIndex = snapshot.current?.index;
  fill(
    $('cells').tBodies[0],
    snapshot.cells.map((c) => {
      const status = document.createElement('td');
      status.className = 'text';
      const mark = document.createElement('span');
      badge(mark, c.status);
      status.append(mark);
      const why = c.saturation ? `saturated: ${c.saturation}` : c.reason;
      if (why) status.append(` ${why}`);
      const tr = row(
        [cell(String(c.index + 1)), cell(c.label, 'text'), status, cell(c.tookS === null ? '' : c.tookS.toFixed(1))],
        c.index === currentIndex ? 'current' : '',
      );
      tr.dataset.status = c.status;
      return tr;
    }),
  );
}

function renderCurrent(snapshot) {
  const current = snapshot.current;
  $('current-label').textContent = current ? current.label : 'none yet';
  if (current) badge($('current-status'), current.status);
  else $('current-status').textContent = '';
  const window = $('current-window');
  if (!current) window.textContent = '';
  else if (current.inWindowS === null) window.textContent = 'connecting';
  else
    window.textContent = `${seconds(current.inWindowS)} in the window${current.windowS === null ? '' : ` of ${seconds(current.windowS)}`}${current.stage ? `, stage ${current.stage.number} of ${current.stage.of} (to ${current.stage.target})` : ''}`;
  window.dataset.seconds = current?.inWindowS ?? '';
  fill(
    $('rates').tBodies[0],
    (current?.rates ?? []).map((r) => row([cell(r.header, 'text'), cell(number(r.perSec))])),
  );
  fill(
    $('latency').tBodies[0],
    (current?.latency ?? []).map((l) =>
      row([
        cell(l.histogram, 'text'),
        cell(l.count.toLocaleString('en-US')),
        cell(number(l.p50Ms, 3)),
        cell(number(l.p90Ms, 3)),
        cell(number(l.p99Ms, 3)),
        cell(number(l.maxMs, 3)),
      ]),
    ),
  );
  if (current && current.latency.length === 0) fill($('latency').tBodies[0], [row([cell('no samples yet', 'text')])]);
  const own = snapshot.orchestrator;
  const processes = [
    ...(current?.processes ?? []),
    { name: 'wsbench (this run)', cpuPercent: own.cpuPercent, rssBytes: own.rssBytes },
  ];
  fill(
    $('processes').tBodies[0],
    processes.map((p) =>
      row([cell(p.name, 'text'), cell(number(p.cpuPercent, 1)), cell(number(p.rssBytes / 1048576, 1))]),
    ),
  );
  fill(
    $('counters').tBodies[0],
    (current?.counters ?? []).map((c) => {
      const value = cell(c.value.toLocaleString('en-US'));
      value.dataset.counter = c.counter;
      return row([cell(c.counter, 'text'), value]);
    }),
  );
}

function renderLog(snapshot) {
  $('log').replaceChildren(
    ...snapshot.log.map((entry) => {
      const li = document.createElement('li');
      const time = document.createElement('time');
      time.textContent = clock(entry.atMs);
      const kind = document.createElement('span');
      badge(kind, entry.kind);
      li.append(time, kind, ` ${entry.text}`);
      return li;
    }),
  );
}

/** Draws a chart the first time, then only swaps its data while its shape stays the same. */
async function renderChart(chart, container) {
  const compiled = vegaLite.compile(chart.spec).spec;
  const inline = (compiled.data ?? []).filter((d) => Array.isArray(d.values));
  const shape = JSON.stringify({ ...compiled, data: (compiled.data ?? []).map((d) => ({ ...d, values: undefined })) });
  const drawn = charts.get(chart.name);
  if (drawn && drawn.shape === shape) {
    for (const d of inline) drawn.view.data(d.name, d.values);
    drawn.caption.textContent = chart.caption;
    await drawn.view.runAsync();
    return;
  }
  const figure = document.createElement('figure');
  const target = document.createElement('div');
  const caption = document.createElement('figcaption');
  caption.textContent = chart.caption;
  figure.append(target, caption);
  const view = new vega.View(vega.parse(compiled), { renderer: 'svg', container: target, hover: false });
  await view.runAsync();
  if (drawn) {
    drawn.view.finalize();
    drawn.figure.replaceWith(figure);
  } else container.append(figure);
  charts.set(chart.name, { view, shape, figure, caption });
}

async function renderCharts(snapshot) {
  const container = $('charts');
  const names = new Set(snapshot.charts.map((c) => c.name));
  for (const [name, drawn] of charts) {
    if (names.has(name)) continue;
    drawn.view.finalize();
    drawn.figure.remove();
    charts.delete(name);
  }
  for (const chart of snapshot.charts) {
    try {
      await renderChart(chart, container);
    } catch (error) {
      console.error(`chart ${chart.name}:`, error);
    }
  }
  // Charts appear as their data comes; they stay in the order wsbench lists them.
  container.append(...snapshot.charts.flatMap((c) => (charts.has(c.name) ? [charts.get(c.name).figure] : [])));
}

/** The newest snapshot whose charts are not drawn yet: a slow drawing skips snapshots rather than piling them up. */
let undrawn = null;
let drawing = false;

async function drawCharts() {
  drawing = true;
  while (undrawn) {
    const snapshot = undrawn;
    undrawn = null;
    await renderCharts(snapshot);
  }
  drawing = false;
}

function render(snapshot) {
  renderRun(snapshot);
  renderCells(snapshot);
  renderCurrent(snapshot);
  renderLog(snapshot);
  undrawn = snapshot;
  if (!drawing) void drawCharts();
  document.body.dataset.updatedAt = String(snapshot.atMs);
}

const source = new EventSource('/events');
source.addEventListener('snapshot', (event) => {
  $('connection').textContent = '';
  render(JSON.parse(event.data));
});
source.addEventListener('end', (event) => {
  render(JSON.parse(event.data));
  source.close();
  $('connection').textContent = 'wsbench has finished: this is the last state';
});
source.addEventListener('error', () => {
  if (source.readyState !== EventSource.CLOSED) $('connection').textContent = 'connection to wsbench lost: retrying';
});
