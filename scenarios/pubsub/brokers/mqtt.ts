/**
 * MQTT 3.1.1 over WebSocket (subprotocol `mqtt`): binary packets read as a
 * stream (a frame may hold several packets or part of one). CONNECT with a
 * clean session and no keep-alive, answered by CONNACK; SUBSCRIBE at QoS 0,
 * answered by SUBACK; PUBLISH at QoS 0 (at most once: the broker may drop, and
 * the scenario counts what it drops); DISCONNECT before closing. Topics are MQTT
 * topic names as they are.
 */
import { Confirmations, bytesOf, text, utf8, type BrokerClient, type BrokerProtocol } from './broker-client.js';

const CONNECT = 0x10;
const CONNACK = 0x20;
const PUBLISH = 0x30;
const SUBSCRIBE = 0x82; // with the reserved flags 0010 the spec asks for
const SUBACK = 0x90;
const PINGREQ = 0xc0;
const PINGRESP = 0xd0;
const DISCONNECT = new Uint8Array([0xe0, 0x00]);
const PROTOCOL_LEVEL_311 = 4;
const CLEAN_SESSION = 0x02;
const SUBACK_FAILURE = 0x80;

export const mqttPubSub: BrokerProtocol = {
  name: 'mqtt',
  subprotocols: ['mqtt'],
  async connect(open, { clientId, onProblem, onUnexpectedClose }) {
    const connack = new Confirmations();
    const subacks = new Map<number, Confirmations>();
    const handlers = new Map<string, (payload: string) => void>();
    const packets = new PacketReader((type, body) => {
      switch (type & 0xf0) {
        case PUBLISH: {
          const topicLength = (body[0]! << 8) | body[1]!;
          const topic = text(body.subarray(2, 2 + topicLength));
          // QoS above 0 puts a packet id before the payload; the subscriptions ask for 0, which a broker may not raise.
          const payloadAt = 2 + topicLength + ((type & 0x06) !== 0 ? 2 : 0);
          const handler = handlers.get(topic);
          if (handler) handler(text(body.subarray(payloadAt)));
          else onProblem(`a PUBLISH on "${topic}", which this client never subscribed to`);
          return;
        }
        case CONNACK:
          if (body[1] !== 0) onProblem(`the broker refused the connection (CONNACK return code ${body[1]})`);
          else connack.answer();
          return;
        case SUBACK: {
          const id = (body[0]! << 8) | body[1]!;
          if (body[2] === SUBACK_FAILURE) onProblem(`the broker refused subscription ${id} (SUBACK 0x80)`);
          else if (!subacks.get(id)?.answer()) onProblem(`a SUBACK for packet ${id}, which was never sent`);
          return;
        }
        case PINGRESP:
        case PINGREQ:
          return;
        default:
          onProblem(`an MQTT packet of type ${type >> 4} the client does not expect`);
      }
    }, onProblem);
    const socket = await open({
      protocols: ['mqtt'],
      onMessage: (data) => packets.push(bytesOf(data)),
      onUnexpectedClose(reason) {
        connack.failAll(reason);
        for (const waiting of subacks.values()) waiting.failAll(reason);
        onUnexpectedClose?.(reason);
      },
    });
    const connected = connack.expect('CONNACK');
    socket.send(
      packet(CONNECT, [
        utf8String('MQTT'),
        new Uint8Array([PROTOCOL_LEVEL_311, CLEAN_SESSION, 0, 0]),
        utf8String(clientId),
      ]),
    );
    await connected;
    let nextId = 1;
    const client: BrokerClient = {
      subscribe(topic, onMessage) {
        const id = nextId++;
        handlers.set(topic, onMessage);
        const waiting = new Confirmations();
        subacks.set(id, waiting);
        const confirmed = waiting.expect(`SUBACK for "${topic}"`).finally(() => subacks.delete(id));
        socket.send(packet(SUBSCRIBE, [new Uint8Array([id >> 8, id & 0xff]), utf8String(topic), new Uint8Array([0])]));
        return confirmed;
      },
      publish(topic, payload) {
        socket.send(packet(PUBLISH, [utf8String(topic), utf8(payload)]));
      },
      async close() {
        socket.send(DISCONNECT);
        await socket.close();
      },
    };
    return client;
  },
};

/** A length-prefixed UTF-8 string, as MQTT writes topic names and client ids. */
function utf8String(value: string): Uint8Array {
  const bytes = utf8(value);
  const out = new Uint8Array(2 + bytes.byteLength);
  out[0] = bytes.byteLength >> 8;
  out[1] = bytes.byteLength & 0xff;
  out.set(bytes, 2);
  return out;
}

/** One packet: the type byte, the remaining length (7 bits a byte, low first), the parts. */
function packet(type: number, parts: Uint8Array[]): Uint8Array {
  let remaining = parts.reduce((sum, p) => sum + p.byteLength, 0);
  const length: number[] = [];
  do {
    let byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
    if (remaining > 0) byte |= 0x80;
    length.push(byte);
  } while (remaining > 0);
  const body = parts.reduce((sum, p) => sum + p.byteLength, 0);
  const out = new Uint8Array(1 + length.length + body);
  out[0] = type;
  out.set(length, 1);
  let at = 1 + length.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** Reads MQTT packets off a byte stream, handing over each packet's type byte and body. */
class PacketReader {
  private buffer = new Uint8Array(0);

  constructor(
    private readonly onPacket: (type: number, body: Uint8Array) => void,
    private readonly onProblem: (text: string) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.buffer.byteLength > 0) {
      data = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
      data.set(this.buffer, 0);
      data.set(chunk, this.buffer.byteLength);
    }
    let at = 0;
    while (at < data.byteLength) {
      let length = 0;
      let multiplier = 1;
      let i = at + 1;
      let complete = false;
      for (; i < data.byteLength && i <= at + 4; i++) {
        length += (data[i]! & 0x7f) * multiplier;
        multiplier *= 128;
        if ((data[i]! & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (i > at + 4) {
          this.onProblem('an MQTT packet whose remaining length runs past 4 bytes');
          data = new Uint8Array(0);
          at = 0;
        }
        break;
      }
      const bodyAt = i + 1;
      if (data.byteLength < bodyAt + length) break;
      this.onPacket(data[at]!, data.subarray(bodyAt, bodyAt + length));
      at = bodyAt + length;
    }
    this.buffer = data.slice(at);
  }
}
