/**
 * A real Prometheus for the tests: the binary, started on loopback with its own
 * config and storage in a temporary folder (never the system service), scraping
 * one target. Tests skip where the binary is absent (.ci/run installs Debian's
 * package, which also has promtool).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMETHEUS = process.env.WSBENCH_PROMETHEUS ?? '/usr/bin/prometheus';
export const PROMTOOL = process.env.WSBENCH_PROMTOOL ?? '/usr/bin/promtool';

export const prometheusSkip = existsSync(PROMETHEUS)
  ? false
  : `no prometheus at ${PROMETHEUS} (apt-get install prometheus, or set WSBENCH_PROMETHEUS)`;
export const promtoolSkip = existsSync(PROMTOOL)
  ? false
  : `no promtool at ${PROMTOOL} (apt-get install prometheus, or set WSBENCH_PROMTOOL)`;

/** Seconds between scrapes. The timeout is as long: a scrape that outlasts it fails, though wsbench answered it, and a busy machine needs room. */
export const SCRAPE_INTERVAL_S = 2;

export interface Prometheus {
  api: string;
  log(): string;
  /** The result of an instant query (at `atS`, epoch seconds, when given); throws on a query error. */
  query(query: string, atS?: number): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  /** The single value of an instant query, asked until Prometheus has one (it ingests within a scrape). */
  queryUntilFound(query: string): Promise<string>;
  /** Resolves once Prometheus answers queries. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts Prometheus scraping `target` (host:port) every SCRAPE_INTERVAL_S; `nativeHistograms` turns the feature on (it then asks for protobuf). */
export async function startPrometheus(
  target: string,
  options: { nativeHistograms?: boolean } = {},
): Promise<Prometheus> {
  const folder = mkdtempSync(join(tmpdir(), 'wsbench-prometheus-'));
  const api = `http://127.0.0.1:${await freePort()}`;
  writeFileSync(
    join(folder, 'prometheus.yml'),
    [
      'global:',
      `  scrape_interval: ${SCRAPE_INTERVAL_S}s`,
      `  scrape_timeout: ${SCRAPE_INTERVAL_S}s`,
      'scrape_configs:',
      '  - job_name: wsbench',
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(folder, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(folder, 'data')}`,
      `--web.listen-address=${api.slice('http://'.length)}`,
      '--log.level=warn',
      ...(options.nativeHistograms ? ['--enable-feature=native-histograms'] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const query: Prometheus['query'] = async (expression, atS) => {
    const time = atS === undefined ? '' : `&time=${atS}`;
    const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expression)}${time}`, {
      signal: AbortSignal.timeout(5000),
    });
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { result?: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
    if (body.status !== 'success') throw new QueryError(`${expression}: ${body.error ?? JSON.stringify(body)}`);
    return body.data?.result ?? [];
  };
  return {
    api,
    log: () => log,
    query,
    async queryUntilFound(expression) {
      const deadline = Date.now() + 60_000;
      let last = '';
      while (Date.now() < deadline) {
        try {
          const found = await query(expression);
          if (found.length === 1) return found[0]!.value[1];
          assert.ok(found.length === 0, `one series expected: ${JSON.stringify(found)}`);
          last = 'no series';
        } catch (error) {
          if (error instanceof assert.AssertionError || error instanceof QueryError) throw error;
          last = String(error);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`no value for ${expression}: ${last}\n${log}`);
    },
    async ready() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
        try {
          if ((await fetch(`${api}/-/ready`, { signal: AbortSignal.timeout(2000) })).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`prometheus not ready within 60 s: ${log}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A query Prometheus refused (a parse error, a bad function): not worth asking again. */
export class QueryError extends Error {}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
