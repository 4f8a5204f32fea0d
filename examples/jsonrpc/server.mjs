#!/usr/bin/env node
/**
 * A small JSON-RPC 2.0 server over WebSocket, the other half of the jsonrpc
 * scenario that `wsbench init` writes (templates/init/scenario.ts): a server
 * of your own, to measure with --target or --server-cmd.
 *
 *   node examples/jsonrpc/server.mjs [--port 8080] [--host 127.0.0.1]
 *
 * --port 0 takes a free port. It prints "listening on ws://HOST:PORT/" once it
 * accepts connections. Methods: echo [text] -> text; add [a, b] -> a + b;
 * sha256 [text, rounds] -> text hashed `rounds` times (hex). Errors are
 * JSON-RPC error objects: -32700 parse error, -32600 invalid request,
 * -32601 method not found, -32602 invalid params.
 */
import { createHash } from 'node:crypto';
import { WebSocketServer } from 'ws';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const host = option('host', '127.0.0.1');
const port = Number(option('port', '8080'));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port: "${option('port', '')}" is not a port number\n`);
  process.exit(2);
}

const isText = (value) => typeof value === 'string';
const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);

/** Each method: whether its params are right, and its result. */
const METHODS = {
  echo: { valid: (p) => p.length === 1 && isText(p[0]), run: ([text]) => text },
  add: { valid: (p) => p.length === 2 && isNumber(p[0]) && isNumber(p[1]), run: ([a, b]) => a + b },
  sha256: {
    valid: (p) => p.length === 2 && isText(p[0]) && Number.isInteger(p[1]) && p[1] >= 1 && p[1] <= 1_000_000,
    run: ([text, rounds]) => {
      let digest = text;
      for (let i = 0; i < rounds; i++) digest = createHash('sha256').update(digest).digest('hex');
      return digest;
    },
  },
};

function answer(text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
  }
  const id = request?.id ?? null;
  if (request?.jsonrpc !== '2.0' || typeof request.method !== 'string')
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } };
  const method = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined;
  if (!method) return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${request.method}` } };
  const params = Array.isArray(request.params) ? request.params : [];
  if (!method.valid(params))
    return { jsonrpc: '2.0', id, error: { code: -32602, message: `invalid params for ${request.method}` } };
  return { jsonrpc: '2.0', id, result: method.run(params) };
}

const server = new WebSocketServer({ host, port, perMessageDeflate: false });
server.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => {
    if (isBinary)
      return socket.send(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'send requests as text' } }),
      );
    const reply = answer(data.toString());
    // A notification (a request without an id) gets no answer.
    if (reply.id !== null || reply.error) socket.send(JSON.stringify(reply));
  });
});
server.on('listening', () => process.stdout.write(`listening on ws://${host}:${server.address().port}/\n`));
server.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const client of server.clients) client.terminate();
    server.close(() => process.exit(0));
  });
}
