/**
 * NATS over WebSocket (nats-server's `websocket` listener): the NATS client
 * protocol, text commands and byte payloads carried in binary frames, read as a
 * stream (one frame may hold several commands, or part of one). The server
 * speaks first (INFO); CONNECT, then PING, and its PONG says it is ready. NATS
 * confirms nothing else, so a SUB is followed by a PING as well: the server
 * handles a connection's commands in order, so its PONG means the SUB is in
 * place. Topics are subjects as they are; `echo: false` keeps a connection's
 * own publications from coming back to it.
 */
import { Confirmations, bytesOf, text, utf8, type BrokerClient, type BrokerProtocol } from './broker-client.js';

const CR = 13;
const LF = 10;
const PING = utf8('PING\r\n');
const PONG = utf8('PONG\r\n');
const CONNECT = {
  verbose: false,
  pedantic: false,
  protocol: 1,
  echo: false,
  headers: false,
  no_responders: false,
  lang: 'wsbench',
  version: '1',
};

export const natsPubSub: BrokerProtocol = {
  name: 'nats',
  subprotocols: [],
  async connect(open, { onProblem, onUnexpectedClose }) {
    const pongs = new Confirmations();
    const handlers = new Map<string, (payload: string) => void>();
    let info = false;
    const infoSeen = new Confirmations();
    const infoArrived = infoSeen.expect('INFO from the server');
    let socket: Awaited<ReturnType<typeof open>> | null = null;
    const reader = new CommandReader({
      line(line) {
        if (line.startsWith('MSG ')) return 'payload';
        if (line === 'PING') socket?.send(PONG);
        else if (line === 'PONG') pongs.answer();
        else if (line.startsWith('INFO ')) {
          if (!info) infoSeen.answer();
          info = true;
        } else if (line.startsWith('-ERR')) onProblem(`the server said ${line}`);
        else if (line !== '+OK') onProblem(`an unknown command: ${line.slice(0, 80)}`);
        return 'line';
      },
      message(line, payload) {
        // MSG <subject> <sid> [reply-to] <#bytes>
        const parts = line.split(' ');
        const handler = handlers.get(parts[2]!);
        if (handler) handler(text(payload));
        else onProblem(`a MSG for subscription ${parts[2]}, which was never made`);
      },
      problem: onProblem,
    });
    socket = await open({
      onMessage: (data) => reader.push(bytesOf(data)),
      onUnexpectedClose(reason) {
        pongs.failAll(reason);
        infoSeen.failAll(reason);
        onUnexpectedClose?.(reason);
      },
    });
    const send = (command: string): void => socket!.send(utf8(command));
    await infoArrived;
    send(`CONNECT ${JSON.stringify(CONNECT)}\r\n`);
    const ready = pongs.expect('PONG after CONNECT');
    socket.send(PING);
    await ready;
    let nextSid = 1;
    const client: BrokerClient = {
      subscribe(topic, onMessage) {
        const sid = String(nextSid++);
        handlers.set(sid, onMessage);
        const confirmed = pongs.expect(`PONG after SUB ${topic}`);
        send(`SUB ${topic} ${sid}\r\nPING\r\n`);
        return confirmed;
      },
      publish(topic, payload) {
        const body = utf8(payload);
        const head = utf8(`PUB ${topic} ${body.byteLength}\r\n`);
        const frame = new Uint8Array(head.byteLength + body.byteLength + 2);
        frame.set(head, 0);
        frame.set(body, head.byteLength);
        frame.set([CR, LF], head.byteLength + body.byteLength);
        socket!.send(frame);
      },
      close: () => socket!.close(),
    };
    return client;
  },
};

/** Reads NATS commands off a byte stream: CRLF-ended lines, and for MSG the payload of the length its line gives. */
class CommandReader {
  private buffer = new Uint8Array(0);

  constructor(
    private readonly on: {
      line(line: string): 'line' | 'payload';
      message(line: string, payload: Uint8Array): void;
      problem(text: string): void;
    },
  ) {}

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.buffer.byteLength > 0) {
      data = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
      data.set(this.buffer, 0);
      data.set(chunk, this.buffer.byteLength);
    }
    let at = 0;
    for (;;) {
      const end = lineEnd(data, at);
      if (end < 0) break;
      const line = text(data.subarray(at, end));
      if (this.on.line(line) === 'line') {
        at = end + 2;
        continue;
      }
      const size = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (!Number.isInteger(size) || size < 0) {
        this.on.problem(`a MSG without a payload size: ${line.slice(0, 80)}`);
        at = end + 2;
        continue;
      }
      if (data.byteLength < end + 2 + size + 2) break; // the payload is still on its way
      this.on.message(line, data.subarray(end + 2, end + 2 + size));
      at = end + 2 + size + 2;
    }
    // What is left is kept as a copy: a stack may reuse the chunk's memory after the call.
    this.buffer = data.slice(at);
  }
}

function lineEnd(data: Uint8Array, from: number): number {
  for (let i = from; i + 1 < data.byteLength; i++) if (data[i] === CR && data[i + 1] === LF) return i;
  return -1;
}
