/**
 * jsonrpc: JSON-RPC 2.0 over WebSocket. Each connection keeps one request in
 * flight, cycling through the methods echo, add and sha256, matches every reply
 * to its request by id, and times it by method. It has no server half: it
 * measures your server, already running (--target) or started for each cell
 * (--server-cmd).
 *
 * Run it (tsc compiles it to dist/scenario.js first):
 *   npm run bench -- --target ws://127.0.0.1:8080/
 * A server to try it on ships with wsbench:
 *   node node_modules/wsbench/examples/jsonrpc/server.mjs --port 8080
 */
import {
  aborted,
  defineScenario,
  latencyMetrics,
  parseJson,
  ProtocolGuard,
  rate,
  total,
  waitUntil,
  type ClientConnection,
} from 'wsbench/scenario';

const METHODS = ['echo', 'add', 'sha256'] as const;
type Method = (typeof METHODS)[number];
/** Connections opened at once: more only measures the kernel's SYN queue. */
const CONNECT_BATCH = 50;

/** A request's params, and whether a result is the right answer to it. */
function request(
  method: Method,
  id: number,
  rounds: number,
): { params: unknown[]; isRight: (result: unknown) => boolean } {
  switch (method) {
    case 'echo':
      return { params: [`hello ${id}`], isRight: (result) => result === `hello ${id}` };
    case 'add':
      return { params: [id, 1], isRight: (result) => result === id + 1 };
    case 'sha256':
      return {
        params: [`block ${id}`, rounds],
        isRight: (result) => typeof result === 'string' && /^[0-9a-f]{64}$/.test(result),
      };
  }
}

export default defineScenario({
  name: 'jsonrpc',
  description: 'JSON-RPC 2.0 requests with ids (echo, add, sha256), one in flight per connection; latency per method.',
  parameters: {
    connections: {
      kind: 'integer',
      description: 'open connections (over all client processes)',
      default: 4,
      min: 1,
      max: 50_000,
      sweepable: true,
    },
    rounds: {
      kind: 'integer',
      description: 'sha256 rounds the server computes for each sha256 request',
      default: 100,
      min: 1,
      max: 100_000,
      sweepable: true,
    },
  },
  duration: { default: '5s' },

  async client(ctx) {
    const latency = { echo: ctx.histogram('echo'), add: ctx.histogram('add'), sha256: ctx.histogram('sha256') };
    const replies = ctx.counter('replies');
    const errors = ctx.counter('errors');
    const guard = new ProtocolGuard(ctx, 'jsonrpc');
    const connections: ClientConnection[] = [];
    const starters: Array<() => void> = [];
    let nextId = 1;
    let inFlight = 0;

    const open = async (index: number): Promise<void> => {
      const pending = new Map<number, { method: Method; sentUs: number; isRight: (result: unknown) => boolean }>();
      let turn = index;
      const send = (): void => {
        const method = METHODS[turn++ % METHODS.length]!;
        const id = nextId++;
        const { params, isRight } = request(method, id, ctx.params.rounds);
        pending.set(id, { method, sentUs: ctx.nowUs(), isRight });
        inFlight += 1;
        connection.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      };
      const connection = await ctx.connect({
        onMessage(data) {
          const nowUs = ctx.nowUs();
          const reply = parseJson(typeof data === 'string' ? data : new TextDecoder().decode(data)) as
            | { id?: unknown; result?: unknown; error?: unknown }
            | undefined;
          const sent = typeof reply?.id === 'number' ? pending.get(reply.id) : undefined;
          if (!reply || !sent) return guard.broken('a JSON-RPC reply carrying the id of a request in flight', data);
          pending.delete(reply.id as number);
          inFlight -= 1;
          // An error object or a wrong answer is the server's error, not a latency.
          if (reply.error !== undefined || !sent.isRight(reply.result)) errors.add();
          else if (!ctx.signal.aborted) {
            latency[sent.method].recordUs(nowUs - sent.sentUs);
            replies.add();
          }
          if (!ctx.signal.aborted) send();
        },
      });
      connections.push(connection);
      starters.push(send);
    };

    const count = ctx.share(ctx.params.connections);
    const first = ctx.firstOfShare(ctx.params.connections);
    for (let i = 0; i < count; i += CONNECT_BATCH) {
      await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, (_, j) => open(first + i + j)));
    }
    await ctx.ready();
    for (const start of starters) start();
    await aborted(ctx.signal);
    // Replies still in flight get a moment, so the connections close quietly.
    await waitUntil(() => inFlight === 0, 1000);
    await Promise.all(connections.map((c) => c.close()));
    guard.throwIfBroken();
  },

  metrics: {
    ...latencyMetrics('echo', { stats: ['p50', 'p99', 'max'], primary: ['p99'], label: 'echo' }),
    ...latencyMetrics('add', { stats: ['p50', 'p99', 'max'], primary: ['p99'], label: 'add' }),
    ...latencyMetrics('sha256', { stats: ['p50', 'p99', 'max'], primary: ['p99'], label: 'sha256' }),
    requestsPerSec: rate('replies', 'req/s', {
      role: 'primary-rate',
      description: 'right answers received per second of the window',
    }),
    errors: total('errors', 'errors', { role: 'errors', description: 'error replies and wrong answers' }),
    connectionsLost: total('connectionsLost', 'lost', { role: 'errors' }),
  },
  table: ['echoP50Ms', 'echoP99Ms', 'addP99Ms', 'sha256P50Ms', 'sha256P99Ms', 'requestsPerSec', 'errors'],
  charts: [{ kind: 'percentiles', histograms: ['echo', 'add', 'sha256'] }],
});
