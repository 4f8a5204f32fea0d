/**
 * `--metrics-listen`: serves /metrics for Prometheus while the run goes on.
 * A scraper only sees what it asks for at its own pace, so after the run the
 * endpoint can stay up until one scrape has taken the final values (with a
 * deadline): without that, the last seconds of every cell would be lost to a
 * scrape interval.
 */
import { createServer, type Server } from 'node:http';
import type { LiveState } from './state.js';
import { closeWithin, listenOn } from './listen.js';
import { hostText, type ListenAddress } from '../../shared/listen-address.js';
import { HostCheck } from '../host-check.js';
import { exposition } from './exposition.js';

export class MetricsServer {
  /** Listeners of waitForScrape(), told the number of each scrape answered. */
  private readonly waiting = new Set<(render: number) => void>();
  /** Scrapes rendered so far: a wait counts only those rendered after it began. */
  private renders = 0;

  private constructor(
    private readonly server: Server,
    readonly address: ListenAddress,
  ) {}

  /** Binds; rejects with a BindError when the address cannot be had. */
  static async start(state: LiveState, address: ListenAddress): Promise<MetricsServer> {
    let metrics: MetricsServer | null = null;
    const hosts = new HostCheck(address.host);
    const server = createServer((request, response) => {
      if (!hosts.admit(request, response)) return;
      const path = new URL(request.url ?? '/', 'http://metrics').pathname;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
      if (path !== '/metrics')
        return void response.writeHead(404, { 'content-type': 'text/plain' }).end('wsbench serves /metrics\n');
      const { contentType, body } = exposition(state, request.headers.accept);
      const render = metrics ? ++metrics.renders : 0;
      response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body, () => metrics?.answered(render));
    });
    const bound = await listenOn(server, address);
    metrics = new MetricsServer(server, bound);
    return metrics;
  }

  get url(): string {
    return `http://${hostText(this.address.host)}:${this.address.port}/metrics`;
  }

  /**
   * Resolves true once a scrape rendered from now on has been answered (it holds the state as it is now),
   * false after `timeoutMs` or when `signal` aborts.
   */
  waitForScrape(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
    const after = this.renders;
    return new Promise((resolve) => {
      const done = (scraped: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(onScrape);
        resolve(scraped);
      };
      const onScrape = (render: number): void => {
        if (render > after) done(true);
      };
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiting.add(onScrape);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(deadlineMs: number): Promise<void> {
    return closeWithin(this.server, deadlineMs);
  }

  private answered(render: number): void {
    for (const listener of [...this.waiting]) listener(render);
  }
}
