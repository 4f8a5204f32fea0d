/**
 * STOMP 1.2 over WebSocket (RabbitMQ's Web-STOMP; subprotocol `v12.stomp`):
 * text frames of a command line, header lines, a blank line and a body ended by
 * NUL, read as a stream. CONNECT (RabbitMQ's default guest login, which it
 * allows from loopback only) answered by CONNECTED; SUBSCRIBE with a `receipt`
 * header, answered by RECEIPT; SEND with a content-length; MESSAGE frames in.
 * Heart-beats are off. A topic `t` is the destination `/topic/t` (RabbitMQ's
 * amq.topic exchange: every subscriber gets every message).
 */
import { Confirmations, utf8, type BrokerClient, type BrokerProtocol } from './broker-client.js';

const NUL = '\0';
const TOPIC_PREFIX = '/topic/';

export const stompPubSub: BrokerProtocol = {
  name: 'stomp',
  subprotocols: ['v12.stomp'],
  async connect(open, { onProblem, onUnexpectedClose }) {
    const connected = new Confirmations();
    const receipts = new Map<string, Confirmations>();
    const handlers = new Map<string, (payload: string) => void>();
    let pending = '';
    // One decoder for the stream: a character split between two frames still decodes whole.
    const decoder = new TextDecoder();
    const onFrame = (command: string, headers: Map<string, string>, body: string): void => {
      if (command === 'MESSAGE') {
        const handler = handlers.get(headers.get('subscription') ?? '');
        if (handler) handler(body);
        else onProblem(`a MESSAGE for subscription "${headers.get('subscription')}", which was never made`);
      } else if (command === 'RECEIPT') {
        if (!receipts.get(headers.get('receipt-id') ?? '')?.answer())
          onProblem(`a RECEIPT for "${headers.get('receipt-id')}", which was never asked for`);
      } else if (command === 'CONNECTED') {
        connected.answer();
      } else if (command === 'ERROR') {
        onProblem(`the broker sent ERROR: ${headers.get('message') ?? body.split('\n')[0]}`);
      } else {
        onProblem(`a STOMP frame the client does not expect: ${command.slice(0, 40)}`);
      }
    };
    const socket = await open({
      protocols: ['v12.stomp'],
      onMessage(data) {
        pending += typeof data === 'string' ? data : decoder.decode(data, { stream: true });
        for (;;) {
          // Heart-beat EOLs may sit between frames.
          pending = pending.replace(/^[\r\n]+/, '');
          const frame = readFrame(pending);
          if (!frame) break;
          pending = pending.slice(frame.length);
          onFrame(frame.command, frame.headers, frame.body);
        }
      },
      onUnexpectedClose(reason) {
        connected.failAll(reason);
        for (const waiting of receipts.values()) waiting.failAll(reason);
        onUnexpectedClose?.(reason);
      },
    });
    const ready = connected.expect('CONNECTED');
    socket.send(`CONNECT\naccept-version:1.2\nhost:/\nlogin:guest\npasscode:guest\nheart-beat:0,0\n\n${NUL}`);
    await ready;
    let nextId = 1;
    const client: BrokerClient = {
      subscribe(topic, onMessage) {
        const id = String(nextId++);
        handlers.set(id, onMessage);
        const waiting = new Confirmations();
        receipts.set(id, waiting);
        const confirmed = waiting.expect(`RECEIPT for the subscription to ${topic}`).finally(() => receipts.delete(id));
        socket.send(`SUBSCRIBE\nid:${id}\ndestination:${TOPIC_PREFIX}${topic}\nack:auto\nreceipt:${id}\n\n${NUL}`);
        return confirmed;
      },
      publish(topic, payload) {
        socket.send(
          `SEND\ndestination:${TOPIC_PREFIX}${topic}\ncontent-type:text/plain\ncontent-length:${utf8(payload).byteLength}\n\n${payload}${NUL}`,
        );
      },
      async close() {
        socket.send(`DISCONNECT\n\n${NUL}`);
        await socket.close();
      },
    };
    return client;
  },
};

/** The first whole frame of `text` (text bodies only), or null while it is incomplete. */
function readFrame(
  text: string,
): { command: string; headers: Map<string, string>; body: string; length: number } | null {
  const headEnd = text.indexOf('\n\n');
  if (headEnd < 0) return null;
  const [command = '', ...lines] = text.slice(0, headEnd).replace(/\r/g, '').split('\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    // STOMP 1.2: the first of repeated headers counts.
    if (colon > 0 && !headers.has(line.slice(0, colon))) headers.set(line.slice(0, colon), line.slice(colon + 1));
  }
  const bodyAt = headEnd + 2;
  // Text bodies hold no NUL, so the frame ends at the first one; content-length counts bytes, not
  // the characters of this decoded text, and is not needed.
  const end = text.indexOf(NUL, bodyAt);
  if (end < 0) return null;
  return { command, headers, body: text.slice(bodyAt, end), length: end + 1 };
}
