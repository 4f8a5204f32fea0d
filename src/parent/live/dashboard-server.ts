/**
 * `--dashboard`: an HTTP server for one page that watches the run. The page,
 * its script and Vega and Vega-Lite's own browser builds (from node_modules)
 * are served from here, so it loads nothing from anywhere else. The state
 * reaches the page by server-sent events: a snapshot at once, then about once
 * a second, and at once when a cell starts or ends. Nothing polls.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LiveState } from './state.js';
import { dashboardSnapshot, OwnProcess } from './dashboard-snapshot.js';
import { closeWithin, listenOn } from './listen.js';
import { hostText, type ListenAddress } from '../../shared/listen-address.js';
import { HostCheck } from '../host-check.js';

/** Pages hear from the run at least this often. */
const PUSH_INTERVAL_MS = 1000;
/** A cell starting or ending is pushed this soon (events that come together share one push). */
const STRUCTURAL_PUSH_DELAY_MS = 100;
/** How long a page waits before reconnecting when the stream breaks. */
const RECONNECT_MS = 2000;

/** The page's files, in the source tree (the package ships them beside dist/). */
const PAGE_DIR = fileURLToPath(new URL('../../../../src/browser/dashboard-page/', import.meta.url));

interface Asset {
  type: string;
  body: Buffer;
}

/** Everything the page loads, read once at start so that a missing file stops the run before it begins. */
function loadAssets(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const vendor = (name: string, file: string): Buffer =>
    readFileSync(join(dirname(require.resolve(`${name}/package.json`)), 'build', file));
  return new Map<string, Asset>([
    ['/', { type: 'text/html; charset=utf-8', body: readFileSync(join(PAGE_DIR, 'index.html')) }],
    ['/page.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(PAGE_DIR, 'page.js')) }],
    ['/page.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(PAGE_DIR, 'page.css')) }],
    ['/vendor/vega.min.js', { type: 'text/javascript; charset=utf-8', body: vendor('vega', 'vega.min.js') }],
    [
      '/vendor/vega-lite.min.js',
      { type: 'text/javascript; charset=utf-8', body: vendor('vega-lite', 'vega-lite.min.js') },
    ],
  ]);
}

export class DashboardServer {
  private readonly streams = new Set<ServerResponse>();
  /** Streams whose socket has not taken the last push yet: they skip pushes until it drains. */
  private readonly backedUp = new Set<ServerResponse>();
  private readonly own = new OwnProcess();
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private unsubscribe: () => void = () => undefined;

  private constructor(
    private readonly state: LiveState,
    private readonly server: Server,
    readonly address: ListenAddress,
    private readonly clock: () => number,
  ) {}

  /** Binds and starts pushing; rejects with a BindError when the address cannot be had. */
  static async start(
    state: LiveState,
    address: ListenAddress,
    clock: () => number = Date.now,
  ): Promise<DashboardServer> {
    const assets = loadAssets();
    let dashboard: DashboardServer | null = null;
    const hosts = new HostCheck(address.host);
    const server = createServer((request, response) => {
      if (hosts.admit(request, response)) dashboard?.handle(request, response, assets);
    });
    const bound = await listenOn(server, address);
    dashboard = new DashboardServer(state, server, bound, clock);
    dashboard.begin();
    return dashboard;
  }

  get url(): string {
    return `http://${hostText(this.address.host)}:${this.address.port}/`;
  }

  private begin(): void {
    this.timer = setInterval(() => this.push(this.clock()), PUSH_INTERVAL_MS);
    this.timer.unref();
    this.unsubscribe = this.state.subscribe((structural) => {
      if (!structural || this.soon) return;
      this.soon = setTimeout(() => {
        this.soon = null;
        this.push(this.clock());
      }, STRUCTURAL_PUSH_DELAY_MS);
      this.soon.unref();
    });
  }

  private handle(request: IncomingMessage, response: ServerResponse, assets: Map<string, Asset>): void {
    const path = new URL(request.url ?? '/', 'http://dashboard').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/events') return this.stream(response);
    const asset = assets.get(path);
    if (!asset) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    response.writeHead(200, {
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': 'no-cache',
    });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  }

  private stream(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.write(`retry: ${RECONNECT_MS}\n\n`);
    this.streams.add(response);
    response.on('close', () => {
      this.streams.delete(response);
      this.backedUp.delete(response);
    });
    this.send(response, this.message(this.clock()));
  }

  private message(now: number, event = 'snapshot'): string {
    return `event: ${event}\ndata: ${JSON.stringify(dashboardSnapshot(this.state, this.own, now))}\n\n`;
  }

  private push(now: number): void {
    if (this.streams.size === 0) return;
    const message = this.message(now);
    for (const response of this.streams) if (!this.backedUp.has(response)) this.send(response, message);
  }

  private send(response: ServerResponse, message: string): void {
    if (response.write(message)) return;
    this.backedUp.add(response);
    response.once('drain', () => this.backedUp.delete(response));
  }

  /** Sends the last state with an `end` event (pages stop reconnecting), then closes within `deadlineMs`. */
  async close(deadlineMs: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = this.soon = null;
    this.unsubscribe();
    if (this.streams.size > 0) {
      const last = this.message(this.clock(), 'end');
      for (const response of this.streams) response.end(last);
    }
    await closeWithin(this.server, deadlineMs);
  }
}
