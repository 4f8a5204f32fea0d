/**
 * What TLS adds to opening a connection, per built-in server stack: the server's
 * CPU per connection (accept, TLS handshake, upgrade, close) and the client's wait
 * for `open`, with TLS off and on. Off and on alternate round by round against a
 * fresh server child each time, so drift on a shared machine hits both; the
 * ratio on/off is the number to read. Connections are opened one at a time by
 * one client in this process (the ws client; socket.io's for socket.io), trusting
 * only the throwaway certificate; the server's CPU is read from /proc as wsbench
 * reads it.
 *
 *     npx tsc -p tsconfig.json && node dist/bench/tls-handshake-cost.js [connections] [rounds] [ecdsa-p256|rsa-2048]
 */
import { fileURLToPath } from 'node:url';
import { ManagedChild } from '../src/parent/child-processes.js';
import { readProcess } from '../src/parent/measure/proc-sampler.js';
import { loadClientAdapter, loadServerAdapter } from '../src/child/stacks.js';
import { makeCertificate, type CertificateKeyType } from '../src/parent/certificate.js';
import type { ClientAdapter, ClientTls, ServerTls, TlsSession } from '../src/shared/types/adapter-types.js';

const SERVER_ENTRY = fileURLToPath(new URL('../src/child/server-process.js', import.meta.url));
const ECHO = { url: new URL('../scenarios/echo.js', import.meta.url).href, name: 'echo' };
const STACKS = ['ws', 'uws', 'socketio', 'bun', 'deno'];
const CLOCK_TICK_MS = 10;

interface Round {
  serverCpuMsPerConnection: number;
  openMsMedian: number;
  session: TlsSession | null;
}

async function round(
  stack: string,
  client: ClientAdapter,
  connections: number,
  tls: { server: ServerTls; client: ClientTls } | null,
): Promise<Round> {
  const adapter = await loadServerAdapter(stack);
  const child = new ManagedChild(`server ${stack}`, 'server', SERVER_ENTRY, adapter.runtime);
  try {
    child.send({
      type: 'start',
      adapter: stack,
      scenario: ECHO,
      params: {},
      host: '127.0.0.1',
      processIndex: 0,
      processCount: 1,
      ...(tls ? { tls: tls.server } : {}),
    });
    const ready = await child.waitFor('ready', 20_000, 'ready signal');
    const pid = child.process.pid!;
    // One connection first, untimed: lazy code paths of both ends warm up outside the count.
    await (
      await client.connect(ready.url!, {
        onMessage: () => undefined,
        onUnexpectedClose: () => undefined,
        ...(tls ? { tls: tls.client } : {}),
      })
    ).close();
    const openMs: number[] = [];
    let session: TlsSession | null = null;
    const before = readProcess(pid)!.cpuTicks;
    for (let i = 0; i < connections; i++) {
      const started = performance.now();
      const connection = await client.connect(ready.url!, {
        onMessage: () => undefined,
        onUnexpectedClose: () => undefined,
        ...(tls ? { tls: tls.client } : {}),
      });
      openMs.push(performance.now() - started);
      session ??= connection.tlsSession();
      await connection.close();
    }
    // The server finishes its side of the last close a moment after the client's resolves.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ticks = readProcess(pid)!.cpuTicks - before;
    return { serverCpuMsPerConnection: (ticks * CLOCK_TICK_MS) / connections, openMsMedian: median(openMs), session };
  } finally {
    await child.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const connections = Number(process.argv[2] ?? 400);
  const rounds = Number(process.argv[3] ?? 3);
  const keyType = (process.argv[4] ?? 'ecdsa-p256') as CertificateKeyType;
  const certificate = await makeCertificate({ keyType });
  const tls = {
    server: { certPem: certificate.certPem, keyPem: certificate.keyPem },
    client: { caPem: certificate.certPem },
  };
  const rows: string[] = [];
  for (const stack of STACKS) {
    const server = await loadServerAdapter(stack);
    if (!(await server.probe()).available) {
      rows.push(`| ${stack} | unavailable here | | | | | | |`);
      continue;
    }
    const client = await loadClientAdapter(server.protocol === 'socket.io' ? 'socketio' : 'ws');
    const off: Round[] = [];
    const on: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      off.push(await round(stack, client, connections, null));
      on.push(await round(stack, client, connections, tls));
    }
    const cpuOff = median(off.map((x) => x.serverCpuMsPerConnection));
    const cpuOn = median(on.map((x) => x.serverCpuMsPerConnection));
    const openOff = median(off.map((x) => x.openMsMedian));
    const openOn = median(on.map((x) => x.openMsMedian));
    const session = on[0]?.session;
    const negotiated = !session
      ? ''
      : session.protocol === null
        ? session.reason
        : `${session.protocol} ${session.cipher}`;
    rows.push(
      `| ${stack} | ${(cpuOff * 1000).toFixed(0)} | ${(cpuOn * 1000).toFixed(0)} | ${(cpuOn / cpuOff).toFixed(2)} | ${openOff.toFixed(2)} | ${openOn.toFixed(2)} | ${(openOn / openOff).toFixed(2)} | ${negotiated} |`,
    );
    process.stderr.write(`${stack} done\n`);
  }
  console.log(
    `${connections} connections one at a time, ${rounds} rounds off/on alternating, medians of rounds; ${keyType} certificate; client: ws (socket.io-client for socketio), Node ${process.version}`,
  );
  console.log(
    '| server | server CPU µs/conn, off | on | on/off | client wait for open ms (median), off | on | on/off | negotiated |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

await main();
