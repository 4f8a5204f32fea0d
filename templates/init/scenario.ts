/**
 * jsonrpc: JSON-RPC 2.0 over WebSocket, cycling through echo, add and sha256; each reply is matched by id, checked
 * and timed by method. One request in flight per connection, or with --rate R, R requests a second sent when due
 * whatever came back, each timed from when it was due (docs/load-models.md). It measures your server:
 * `npm run bench -- --target ws://127.0.0.1:8080/` (or --server-cmd). One to try:
 *   node node_modules/wsbench/examples/jsonrpc/server.mjs --port 8080
 */
import { counter, defineScenario, histogram, OPEN_MODEL_PARAMETERS } from 'wsbench/scenario';

const HEX_64 = /^[0-9a-f]{64}$/;
/** Each method's params for request `id`, and whether a result is the right answer to it. */
const CALLS = {
  echo: (id: number) => ({ params: [`hello ${id}`], right: (r: unknown) => r === `hello ${id}` }),
  add: (id: number) => ({ params: [id, 1], right: (r: unknown) => r === id + 1 }),
  sha256: (id: number, n: number) => ({ params: [`block ${id}`, n], right: (r: unknown) => HEX_64.test(`${r}`) }),
};
const METHODS = ['echo', 'add', 'sha256'] as const;
const latency = (label: string) => histogram({ stats: ['p50', 'p99', 'max'], primary: ['p99'], label });

export default defineScenario({
  name: 'jsonrpc',
  description: 'JSON-RPC 2.0 requests with ids (echo, add, sha256), closed loop or at a rate; latency per method.',
  parameters: {
    connections: { kind: 'integer', description: 'open connections', default: 4, min: 1, max: 50_000, sweepable: true },
    rounds: { kind: 'integer', description: 'sha256 rounds per request', default: 100, min: 1, max: 100_000 },
    ...OPEN_MODEL_PARAMETERS,
  },
  duration: { default: '5s' },
  recorders: {
    echo: latency('echo'),
    add: latency('add'),
    sha256: latency('sha256'),
    replies: counter({ rate: { key: 'requestsPerSec', header: 'req/s', role: 'primary-rate' } }),
    errors: counter({ total: { role: 'errors', description: 'error replies, wrong answers, unanswered requests' } }),
    connectionsLost: counter({ total: { header: 'lost', role: 'errors' } }),
  },

  // Once per connection, when the window opens; wsbench opens, drains and closes the connections.
  async connection(conn, ctx) {
    const { replies, errors } = ctx.recorders;
    const rpc = conn.requests({ answered: replies, wrong: errors, missing: errors });
    // Each request after the last reply (closed loop), or when due (--rate): ends when the window closes.
    await conn.iterate((n, due) => {
      const id = n + 1;
      const method = METHODS[(conn.index + id) % METHODS.length]!;
      const { params, right } = CALLS[method](id, ctx.params.rounds);
      const request = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      const check = (reply: { error?: unknown; result?: unknown }) => reply.error === undefined && right(reply.result);
      return rpc.send(request, { id, due, time: ctx.recorders[method], check });
    });
  },

  table: ['echoP50Ms', 'echoP99Ms', 'addP99Ms', 'sha256P50Ms', 'sha256P99Ms', 'requestsPerSec', 'errors'],
  charts: [{ kind: 'percentiles', histograms: ['echo', 'add', 'sha256'] }],
});
