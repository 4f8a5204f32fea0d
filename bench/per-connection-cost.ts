/**
 * What the per-connection form costs: client CPU microseconds per message of
 * echo written per connection (scenarios/echo.ts) against the same workload
 * written as one client(ctx) (echo-client-form.ts), both wsbench runs at once
 * against one uws echo server, so that both meet the same drift. A control
 * round runs the client(ctx) form against itself: how far the ratio reads off
 * when nothing differs. Each round alternates which run starts first.
 *
 * Alone: `node dist/bench/per-connection-cost.js [rounds]`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { run } from '../src/parent/index.js';
import echo from '../scenarios/echo.js';
import echoClientForm from './echo-client-form.js';
import { killAll, median, reply } from './bench-children.js';
import type { AnyScenario } from '../src/shared/types/scenario-types.js';

const ECHO_COST_FILE = fileURLToPath(new URL('./echo-cost.js', import.meta.url));
export const PER_CONNECTION_COST = { connections: 50, payloadBytes: 32, durationMs: 4000, rounds: 3 };

interface FormCost {
  usPerMessage: number;
  messagesPerSec: number;
}

/** One wsbench run of `scenario` against `url`, its client's CPU per message received. */
async function measureRun(scenario: AnyScenario, url: string): Promise<FormCost> {
  const result = await run({
    scenario,
    targets: [{ name: 'bench-uws', url }],
    clients: ['ws'],
    params: {
      connections: PER_CONNECTION_COST.connections,
      payload: PER_CONNECTION_COST.payloadBytes,
      duration: PER_CONNECTION_COST.durationMs,
    },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok')
    throw new Error(`${scenario.name} cell ${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`);
  const client = cell.resources.clients[0]!;
  const messages = cell.measurements.counters.received ?? 0;
  const windowMs = cell.measurements.windowMs;
  return {
    usPerMessage: ((client.cpuPercent.mean / 100) * windowMs * 1000) / messages,
    messagesPerSec: messages / (windowMs / 1000),
  };
}

/** Two runs at once on one fresh server: the second's cost over the first's. */
async function sideBySide(
  first: AnyScenario,
  second: AnyScenario,
  secondStartsFirst: boolean,
): Promise<[FormCost, FormCost]> {
  const children: ChildProcess[] = [];
  try {
    const server = fork(ECHO_COST_FILE, ['--role', 'server']);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const runs = secondStartsFirst
      ? [measureRun(second, url), measureRun(first, url)].reverse()
      : [measureRun(first, url), measureRun(second, url)];
    const [a, b] = await Promise.all(runs);
    return [a!, b!];
  } finally {
    killAll(children);
  }
}

export interface PerConnectionCost {
  /** Per-connection CPU per message over client(ctx)'s, per round. */
  ratios: number[];
  /** client(ctx) over client(ctx): the comparison's own noise. */
  control: number;
  clientForm: FormCost[];
  perConnection: FormCost[];
}

export async function perConnectionCost(
  rounds = PER_CONNECTION_COST.rounds,
  log: (line: string) => void = () => undefined,
): Promise<PerConnectionCost> {
  const ratios: number[] = [];
  const clientForm: FormCost[] = [];
  const perConnection: FormCost[] = [];
  for (let round = 0; round < rounds; round++) {
    const [base, form] = await sideBySide(echoClientForm, echo, round % 2 === 1);
    clientForm.push(base);
    perConnection.push(form);
    ratios.push(form.usPerMessage / base.usPerMessage);
    log(
      `round ${round + 1}/${rounds}: client(ctx) ${base.usPerMessage.toFixed(2)} µs/msg at ${Math.round(base.messagesPerSec)} msg/s; per-connection ${form.usPerMessage.toFixed(2)} µs/msg at ${Math.round(form.messagesPerSec)} msg/s; ratio ${ratios.at(-1)!.toFixed(3)}`,
    );
  }
  const [a, b] = await sideBySide(echoClientForm, echoClientForm, false);
  const control = b.usPerMessage / a.usPerMessage;
  log(
    `control: client(ctx) ${a.usPerMessage.toFixed(2)} vs client(ctx) ${b.usPerMessage.toFixed(2)} µs/msg; ratio ${control.toFixed(3)}`,
  );
  return { ratios, control, clientForm, perConnection };
}

export function renderPerConnectionCost({ ratios, control, clientForm, perConnection }: PerConnectionCost): string {
  return [
    `per-connection form against client(ctx), echo ${PER_CONNECTION_COST.connections} connections x 1 in flight, ${PER_CONNECTION_COST.payloadBytes} B, both at once on one uws server, ${ratios.length} rounds of ${PER_CONNECTION_COST.durationMs / 1000} s (medians):`,
    `  client(ctx)     ${median(clientForm.map((c) => c.usPerMessage)).toFixed(2)} µs client CPU per message, ${Math.round(median(clientForm.map((c) => c.messagesPerSec)))} msg/s`,
    `  per-connection  ${median(perConnection.map((c) => c.usPerMessage)).toFixed(2)} µs client CPU per message, ${Math.round(median(perConnection.map((c) => c.messagesPerSec)))} msg/s`,
    `  ratio ${median(ratios).toFixed(2)} (each round ${ratios.map((r) => r.toFixed(2)).join(' ')}); control, client(ctx) against itself: ${control.toFixed(2)}`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? PER_CONNECTION_COST.rounds);
  console.log(renderPerConnectionCost(await perConnectionCost(rounds, (line) => console.error(line))));
}
