/**
 * chat (seed 004): `members` clients in one room send `rate` messages/s in
 * total; the server broadcasts each to every other member, optionally through
 * a moderator delay and bounded outgoing queues (see chat/chat-room.ts).
 *
 * Every message carries its sender, a per-sender sequence number and its
 * intended send time, so receivers time it from the schedule (a stalled sender
 * cannot hide delay) and count drops from sequence gaps. When the window
 * closes each sender sends an end marker with its last sequence number, which
 * the server never drops: receivers then account for the tail too, and every
 * expected message ends up received, dropped or (connection lost) unaccounted.
 * Wire protocol for servers in other languages: docs/protocols/chat.md.
 */
import {
  aborted,
  counter,
  defineScenario,
  histogram,
  messageText,
  waitUntil,
  ProtocolGuard,
  parseJson,
  type ClientConnection,
  type MetricInput,
} from 'wsbench/scenario';
import { ChatRoom } from './chat/chat-room.js';

/** A chat message: sender, its sequence number, intended send time (µs, monotonic), text. */
interface ChatMessage {
  s: number;
  n: number;
  t: number;
  x: string;
}
/** End of one sender's stream: its last sequence number (-1 when it sent nothing). */
interface EndMarker {
  e: 1;
  s: number;
  n: number;
}

const END_PREFIX = '{"e"';
/** After the window, end markers get this long plus ten moderator delays to arrive. */
const DRAIN_BASE_MS = 3000;

/** The parameters the computed metrics read (typed by hand: see `metrics`). */
type ChatParams = { members: number; queue: string; queuePolicy: string };

/** sent x (members - 1): every message goes to every other member. */
function expectedOf(measurements: MetricInput['measurements'], members: number): number {
  return (measurements.counters.sent ?? 0) * (members - 1);
}

export default defineScenario({
  name: 'chat',
  description:
    'One chat room: members send at a total rate, the server (optionally moderated, optionally with bounded queues) broadcasts to all others.',
  parameters: {
    members: {
      kind: 'integer',
      description: 'clients in the room (over all client processes)',
      default: 4,
      min: 2,
      max: 10_000,
      sweepable: true,
      spread: 'processes',
    },
    rate: {
      kind: 'number',
      description: 'messages per second sent by all members together',
      default: 30,
      min: 0.1,
      max: 1_000_000,
      sweepable: true,
    },
    payload: {
      kind: 'size',
      description: 'text bytes per message (besides sender, sequence, timestamp)',
      default: 32,
      min: 0,
      max: '1MiB',
    },
    moderatorDelay: {
      kind: 'duration',
      description: 'server holds each message this long before broadcasting',
      default: 0,
      min: 0,
      max: '10s',
      sweepable: true,
    },
    moderatorMode: {
      kind: 'choice',
      description: 'concurrent: each message waits its own delay; serial: one moderator, one message at a time',
      choices: ['concurrent', 'serial'],
      default: 'concurrent',
      sweepable: true,
    },
    queue: {
      kind: 'choice',
      description: 'outgoing queue per connection',
      choices: ['unlimited', 'bounded'],
      default: 'unlimited',
      sweepable: true,
    },
    queueLimit: {
      kind: 'integer',
      description: 'bounded queue: most messages waiting per connection',
      default: 4,
      min: 1,
      max: 1_000_000,
      sweepable: true,
    },
    queueLimitBytes: {
      kind: 'size',
      description: 'bounded queue: most bytes waiting per connection (0 = no byte limit)',
      default: 0,
      min: 0,
    },
    queuePolicy: {
      kind: 'choice',
      description: 'bounded queue when full: wait (hold the broadcast) or drop',
      choices: ['wait', 'drop'],
      default: 'wait',
      sweepable: true,
    },
  },
  presets: {
    // Seed 004: 4 clients, 30 msg/s, 60 s, moderator 0 vs 10 ms x max_queue=4 vs unlimited.
    seed: {
      members: 4,
      rate: 30,
      duration: '60s',
      moderatorDelay: [0, '10ms'],
      queue: ['unlimited', 'bounded'],
      queueLimit: 4,
      queuePolicy: 'wait',
    },
    ci: { rate: 100, duration: '1s', moderatorDelay: [0, '10ms'], queue: ['unlimited', 'bounded'] },
  },
  validate(p) {
    if (p.moderatorMode === 'serial' && p.moderatorDelay > 0 && p.rate * p.moderatorDelay >= 1000) {
      return {
        parameter: 'rate',
        message:
          `a serial moderator taking ${p.moderatorDelay}ms per message handles under ${Math.floor(1000 / p.moderatorDelay)} msg/s, ` +
          `not ${p.rate} (lower rate or moderatorDelay, or set moderatorMode to concurrent)`,
      };
    }
    return null;
  },
  // Members connect all at once, about 2,500 a second here: 15 s plus 1 s per 1000 members.
  readyTimeoutMs: (p) => 15_000 + p.members,

  server(ctx) {
    const p = ctx.params;
    const { messagesIn, delivered, droppedByQueue, queuedInApp, stalls, stackDrops, serverHold } = ctx.recorders;
    const room = new ChatRoom(
      {
        moderatorDelayMs: p.moderatorDelay,
        moderatorMode: p.moderatorMode,
        bounded: p.queue === 'bounded',
        limitMessages: p.queueLimit,
        limitBytes: p.queueLimitBytes,
        policy: p.queuePolicy,
      },
      { delivered, droppedByQueue, queuedInApp, stalls, stackDrops, hold: serverHold },
      ctx,
      () => ctx.connections(),
    );
    return {
      onMessage(connection, data) {
        const text = messageText(data);
        const control = text.startsWith(END_PREFIX);
        if (!control) messagesIn.add();
        room.post(connection, text, control);
      },
      onClose(connection) {
        room.leave(connection);
      },
      onMeasureEnd() {
        room.stop();
      },
    };
  },

  async client(ctx) {
    const { members, rate, payload, moderatorDelay } = ctx.params;
    const { latency, sent, received, dropped, duplicates, receivedAfterWindow: afterWindow, errors } = ctx.recorders;
    const guard = new ProtocolGuard(ctx, 'chat');
    const text = 'x'.repeat(payload);
    const count = ctx.share(members);
    const first = ctx.firstOfShare(members);

    interface Member {
      connection: ClientConnection;
      alive: boolean;
      sent: number;
      ends: number;
    }
    const open = async (): Promise<Member> => {
      const nextSeq = new Map<number, number>();
      const member = { alive: true, sent: 0, ends: 0 } as Member;
      member.connection = await ctx.connect({
        onMessage(data) {
          const nowUs = ctx.nowUs();
          const message = parseJson(messageText(data)) as ChatMessage | EndMarker | undefined;
          if (typeof message?.s !== 'number' || typeof message.n !== 'number') {
            return guard.broken('a member\'s message {"s","n","t","x"} or end marker {"e","s","n"}', data);
          }
          const expected = nextSeq.get(message.s) ?? 0;
          if ('e' in message) {
            // Whatever this sender sent after the last message we saw never came.
            if (message.n + 1 > expected) dropped.add(message.n + 1 - expected);
            nextSeq.set(message.s, Math.max(expected, message.n + 1));
            member.ends += 1;
            return;
          }
          if (message.n < expected) return duplicates.add();
          if (message.n > expected) dropped.add(message.n - expected);
          nextSeq.set(message.s, message.n + 1);
          received.add();
          if (ctx.signal.aborted) afterWindow.add();
          latency.recordUs(nowUs - message.t);
        },
        onUnexpectedClose() {
          member.alive = false;
          errors.add();
        },
      });
      return member;
    };
    const local = await Promise.all(Array.from({ length: count }, open));
    await ctx.ready();

    // Slot n of the room's schedule belongs to member n % members; its sequence number is n div members.
    const intervalUs = 1_000_000 / rate;
    const startUs = ctx.nowUs();
    let slot = 0;
    let timer: NodeJS.Timeout | undefined;
    const sendDue = (): void => {
      const nowUs = ctx.nowUs();
      for (; startUs + slot * intervalUs <= nowUs; slot++) {
        const member = local[(slot % members) - first];
        if (!member?.alive) continue;
        const message: ChatMessage = { s: slot % members, n: member.sent, t: startUs + slot * intervalUs, x: text };
        member.sent += 1;
        sent.add();
        member.connection.send(JSON.stringify(message));
      }
      timer = setTimeout(sendDue, Math.max(0, (startUs + slot * intervalUs - ctx.nowUs()) / 1000));
    };
    sendDue();
    await aborted(ctx.signal);
    clearTimeout(timer);

    local.forEach((member, i) => {
      const end: EndMarker = { e: 1, s: first + i, n: member.sent - 1 };
      if (member.alive) member.connection.send(JSON.stringify(end));
    });
    const endsExpected = members - 1;
    const finished = await waitUntil(
      () => !guard.ok || local.every((m) => !m.alive || m.ends >= endsExpected),
      DRAIN_BASE_MS + 10 * moderatorDelay,
    );
    if (!finished) {
      ctx.note(
        'chat: some receivers did not get every end marker before the drain timeout; their missing messages count as unaccounted',
      );
    }
    ctx.recorders.receiversUnfinished.add(local.filter((m) => m.ends < endsExpected).length);
    await Promise.all(local.map((m) => m.connection.close()));
    guard.throwIfBroken();
  },

  recorders: {
    sent: counter({ total: { header: 'sent' } }),
    received: counter({
      total: { header: 'received', description: 'distinct messages that arrived (duplicates excluded)' },
      rate: {
        key: 'deliveriesPerSec',
        header: 'deliveries/s',
        unit: 'msg/s',
        role: 'primary-rate',
        description: 'messages received by all members per second of the window',
      },
    }),
    // Not a fault by itself: a bounded queue with queuePolicy drop drops by design (droppedByServer
    // counts those); droppedAgainstPolicy is the part that is a fault.
    dropped: counter({
      total: {
        header: 'dropped',
        better: 'lower',
        description: 'counted by receivers from sequence gaps, end markers included',
      },
    }),
    duplicates: counter({ total: { header: 'dup', role: 'errors' } }),
    receivedAfterWindow: counter({ total: { header: 'after window' } }),
    // What the queue policy dropped by design (queuePolicy drop); a drop beyond it is droppedAgainstPolicy's.
    droppedByQueue: counter({
      side: 'server',
      total: {
        key: 'droppedByServer',
        header: 'server drops',
        better: 'lower',
        description: "the server's own count of messages its bounded queues dropped (cross-check for dropped)",
      },
    }),
    messagesIn: counter({ side: 'server', total: { key: 'messagesInAtServer', header: 'server in' } }),
    delivered: counter({ side: 'server', total: { key: 'deliveredByServer', header: 'server out' } }),
    queuedInApp: counter({ side: 'server', total: { header: 'queued' } }),
    stalls: counter({ side: 'server', total: { key: 'queueStalls', header: 'stalls' } }),
    stackDrops: counter({
      side: 'server',
      total: { header: 'stack drops', role: 'errors', description: 'deliveries the server stack refused to queue' },
    }),
    latency: histogram({
      primary: ['p50', 'p99'],
      description: 'from the intended send time to arrival at a receiver',
    }),
    serverHold: histogram({
      side: 'server',
      label: 'hold',
      description: 'from arrival at the server to hand-off to the stack, per delivery',
    }),
    receiversUnfinished: counter({
      total: {
        header: 'unfinished',
        role: 'errors',
        description: 'receivers that did not get every end marker before the drain timeout',
      },
    }),
    errors: counter({ total: { header: 'errors', role: 'errors' } }),
    connectionsLost: counter({ total: { header: 'lost', role: 'errors' } }),
  },
  // Each compute's input is typed, not inferred: an inferred one would leave these keys unknown to `table`.
  metrics: {
    expected: {
      header: 'expected',
      unit: 'count',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'messages sent x (members - 1): every message goes to every other member',
        compute: ({ measurements, params }: MetricInput<ChatParams>) => expectedOf(measurements, params.members),
      },
    },
    // A fault: a message missing that the server's queue policy does not account for.
    droppedAgainstPolicy: {
      header: 'lost msgs',
      unit: 'count',
      better: 'lower',
      role: 'errors',
      description:
        "messages missing from a receiver's sequence that the queue policy does not account for: every gap, except with queue bounded and " +
        "queuePolicy drop, where only the gaps beyond the server's own drop count (droppedByQueue on its stats route; a server that does not say: every gap)",
      source: {
        custom: 'dropped, less droppedByServer when queue is bounded and queuePolicy is drop',
        compute: ({ measurements: m, params }: MetricInput<ChatParams>) => {
          const dropped = m.counters.dropped ?? 0;
          const byPolicy =
            params.queue === 'bounded' && params.queuePolicy === 'drop' ? (m.serverCounters.droppedByQueue ?? 0) : 0;
          return Math.max(0, dropped - byPolicy);
        },
      },
    },
    unaccounted: {
      header: 'unaccounted',
      unit: 'count',
      better: 'lower',
      role: 'errors',
      description: 'neither received nor seen missing: receivers that lost their connection or timed out',
      source: {
        custom: 'expected - received - dropped',
        compute: ({ measurements, params }: MetricInput<ChatParams>) =>
          expectedOf(measurements, params.members) -
          (measurements.counters.received ?? 0) -
          (measurements.counters.dropped ?? 0),
      },
    },
  },
  table: [
    'expected',
    'received',
    'dropped',
    'droppedAgainstPolicy',
    'duplicates',
    'latencyMinMs',
    'latencyMeanMs',
    'latencyP50Ms',
    'latencyP99Ms',
    'latencyMaxMs',
    'errors',
  ],
  charts: [
    { kind: 'grid', rows: 'moderatorDelay', columns: 'queue', histogram: 'latency', label: 'dropped' },
    { kind: 'percentiles', histograms: ['latency'] },
    { kind: 'over-time', histogram: 'latency', rates: ['deliveriesPerSec'] },
    { kind: 'resources' },
  ],
});
