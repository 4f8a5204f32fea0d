/**
 * What every pub/sub protocol client of the pubsub scenario offers (wsbench's own, NATS,
 * MQTT, STOMP, graphql-ws), so one scenario drives any broker: connect once,
 * subscribe with a callback, publish text, close. Each protocol is one file
 * beside this one that knows only its own wire format and this contract; the
 * WebSocket underneath is opened by the cell's client stack (ctx.connect).
 */
import type { ClientConnection, MessageData } from 'wsbench/scenario';

/** Opens one WebSocket to the cell's server with the cell's client stack, offering these subprotocols: ctx.connect, as a protocol client needs it. */
export type OpenSocket = (options: {
  protocols?: string[];
  onMessage(data: MessageData): void;
  onUnexpectedClose?(reason: string): void;
}) => Promise<ClientConnection>;

export interface BrokerConnectOptions {
  /** Identifies the client to brokers that want one (MQTT's client id); unique within the cell. */
  clientId: string;
  /** The broker said something the client cannot take (an error frame, a malformed packet): one line saying what. */
  onProblem(problem: string): void;
  /** The connection closed without the client asking (wsbench has counted it already). */
  onUnexpectedClose?(reason: string): void;
}

/** One connection to a broker, speaking its protocol. */
export interface BrokerClient {
  /**
   * Subscribes to `topic`; resolves once the broker confirmed it, so that a publication from then
   * on reaches `onMessage` (a NATS PONG after SUB, MQTT SUBACK, a STOMP RECEIPT, wsbench's
   * `subscribed`, the graphql-ws broker's first event). Rejects after CONFIRM_TIMEOUT_MS.
   */
  subscribe(topic: string, onMessage: (payload: string) => void): Promise<void>;
  /** Publishes `payload` (text) to `topic`, fire and forget (MQTT QoS 0, NATS PUB, STOMP SEND). */
  publish(topic: string, payload: string): void;
  /** Says goodbye where the protocol has a word for it, then closes the WebSocket. */
  close(): Promise<void>;
}

/** A pub/sub protocol: how to open a BrokerClient over a WebSocket. */
export interface BrokerProtocol {
  /** As the pubsub scenario's `broker` parameter names it. */
  name: string;
  /** The WebSocket subprotocols it offers in the handshake (none: the broker takes any). */
  subprotocols: string[];
  connect(open: OpenSocket, options: BrokerConnectOptions): Promise<BrokerClient>;
}

/** How long a broker may take to confirm a connection or a subscription. */
export const CONFIRM_TIMEOUT_MS = 10_000;

/**
 * Answers a protocol client waits for, in the order it asked for them, each with a deadline:
 * `expect(what)` resolves on the next `answer()`, or rejects naming `what` when none came in
 * time or the connection closed first.
 */
export class Confirmations {
  private readonly waiting: Array<{
    what: string;
    resolve(): void;
    reject(error: Error): void;
    timer: ReturnType<typeof setTimeout>;
  }> = [];

  expect(what: string, timeoutMs = CONFIRM_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.waiting.findIndex((w) => w.timer === timer);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new Error(`no ${what} within ${timeoutMs / 1000}s`));
      }, timeoutMs);
      this.waiting.push({ what, resolve, reject, timer });
    });
  }

  /** The oldest wait is answered; false when nobody waited. */
  answer(): boolean {
    const next = this.waiting.shift();
    if (!next) return false;
    clearTimeout(next.timer);
    next.resolve();
    return true;
  }

  /** Every wait fails (the connection closed, the broker refused). */
  failAll(reason: string): void {
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error(`no ${w.what}: ${reason}`));
    }
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Text as UTF-8 bytes (the runtimes' own encoder: Bun and Deno children run this too). */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
/** UTF-8 bytes as text. */
export const text = (bytes: Uint8Array): string => decoder.decode(bytes);
/** A message as bytes, however the stack handed it over. */
export const bytesOf = (data: MessageData): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);
