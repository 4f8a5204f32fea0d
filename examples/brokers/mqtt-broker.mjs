#!/usr/bin/env node
/**
 * An MQTT broker over WebSocket for wsbench's pubsub scenario: aedes (an MQTT
 * 3.1.1/5 broker in Node) behind a `ws` WebSocketServer on 127.0.0.1, one
 * WebSocket stream per client, as aedes' own README serves WebSockets. The
 * handshake accepts the `mqtt` subprotocol (and a client that offers none, such
 * as wsbench's probe). Compression off, as for every wsbench stack.
 *
 *   wsbench run pubsub --broker mqtt --server-cmd 'mqtt=node examples/brokers/mqtt-broker.mjs --port {port}'
 *
 * aedes and ws are dependencies of the wsbench checkout (aedes a development
 * one): in a project with wsbench installed from npm, `npm install aedes@1.2.0`.
 * Exits 77 (the cell is n/a) when aedes cannot be loaded.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('usage: mqtt-broker.mjs --port PORT [--host 127.0.0.1]');
  process.exit(2);
}
let Aedes;
let ws;
try {
  ({ Aedes } = await import('aedes'));
  ws = await import('ws');
} catch (error) {
  console.error(`the MQTT broker needs aedes and ws (npm install aedes@1.2.0 ws): ${error.message.split('\n')[0]}`);
  process.exit(77);
}

const aedes = await Aedes.createBroker();
const server = new ws.WebSocketServer({
  host: values.host,
  port,
  perMessageDeflate: false,
  handleProtocols: (offered) => (offered.has('mqtt') ? 'mqtt' : false),
});
server.on('connection', (socket) => {
  const stream = ws.createWebSocketStream(socket);
  stream.on('error', () => socket.terminate());
  aedes.handle(stream);
});
server.on('listening', () => console.log(`MQTT over WebSocket on ws://${values.host}:${port}/`));
const stop = () => server.close(() => aedes.close(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
