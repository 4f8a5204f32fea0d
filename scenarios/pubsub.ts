/**
 * pubsub: P publishers and S subscribers over T topics, each subscriber on k of
 * them; the publishers send `rate` messages a second in all, of `size` bytes,
 * on a fixed schedule (pubsub/schedule.ts). Every delivery is timed from
 * its publication's intended send time, carried in the message (one host, one
 * monotonic clock; a stalled publisher cannot hide delay: coordinated-omission
 * correct), and each subscriber counts what it got against what the schedule
 * says it should: losses, duplicates and order violations per (publisher,
 * topic) stream are errors. Fairness is how far apart the first and the last
 * subscriber of a client process got the same publication.
 *
 * The server is wsbench's own stacks, each through its own pub/sub (uWS and Bun
 * topics, socket.io rooms, a topic map on ws and Deno), speaking the protocol of
 * docs/protocols/pubsub.md; or a real broker started by --server-cmd (or a
 * --target), spoken to in its own protocol, which the `broker` parameter names
 * (its protocol clients in pubsub/brokers/: NATS, MQTT, STOMP, graphql-ws).
 */
import {
  counter,
  defineScenario,
  histogram,
  messageText,
  parseJson,
  RESOURCE_METRICS,
  streamEnd,
  type MetricInput,
} from 'wsbench/scenario';
import type { BrokerClient, BrokerProtocol } from './pubsub/brokers/broker-client.js';
import { graphqlWsPubSub } from './pubsub/brokers/graphql-ws.js';
import { mqttPubSub } from './pubsub/brokers/mqtt.js';
import { natsPubSub } from './pubsub/brokers/nats.js';
import { stompPubSub } from './pubsub/brokers/stomp.js';
import { wsbenchPubSub } from './pubsub/brokers/wsbench-pubsub.js';
import { runSchedule } from './pubsub/publisher.js';
import {
  decodePublication,
  publicationsOf,
  publicationsOnTopic,
  publisherOf,
  streamOf,
  streamSeqOf,
  topicName,
  topicOf,
  topicsOfSubscriber,
} from './pubsub/schedule.js';
import { DeliverySpread, SubscriberTally } from './pubsub/tally.js';

const BROKERS = {
  wsbench: wsbenchPubSub,
  nats: natsPubSub,
  mqtt: mqttPubSub,
  'graphql-ws': graphqlWsPubSub,
  stomp: stompPubSub,
} as const;
type BrokerName = keyof typeof BROKERS;
/** After the last publication was due, stragglers get this long before they count as lost. */
const DRAIN_MS = 5000;
/** Connections opened at once while a client process connects its share. */
const CONNECT_BATCH = 100;

const perSecondOfPublishing = (count: number | undefined, p: { rate: number; duration: number }): number | null => {
  const seconds = publicationsOf(p) / p.rate;
  return seconds > 0 ? Math.round((count ?? 0) / seconds) : null;
};

export default defineScenario({
  name: 'pubsub',
  description:
    'Publishers send at a fixed total rate over topics; every subscriber of a topic should get each of its messages once, in order: latency from the schedule, losses, duplicates, fairness.',
  parameters: {
    publishers: {
      kind: 'integer',
      description: 'publishing connections (over all client processes)',
      default: 1,
      min: 1,
      max: 10_000,
      sweepable: true,
    },
    subscribers: {
      kind: 'integer',
      description: 'subscribing connections (over all client processes)',
      default: 10,
      min: 1,
      max: 100_000,
      sweepable: true,
    },
    topics: {
      kind: 'integer',
      description: 'topics the publications are spread over',
      default: 1,
      min: 1,
      max: 100_000,
      sweepable: true,
    },
    topicsPerSubscriber: {
      kind: 'integer',
      description: 'topics each subscriber listens to (at most topics)',
      default: 1,
      min: 1,
      max: 1000,
      sweepable: true,
    },
    rate: {
      kind: 'integer',
      description: 'publications per second, all publishers together',
      default: 100,
      min: 1,
      max: 1_000_000,
      sweepable: true,
    },
    size: {
      kind: 'size',
      description: 'bytes of each publication (its number, its send time, padding)',
      default: 64,
      min: 32,
      max: '1MiB',
      sweepable: true,
    },
    broker: {
      kind: 'choice',
      description:
        "the protocol spoken to the server: wsbench's own (the built-in stacks), or a broker's (a --server-cmd or --target that is one)",
      choices: Object.keys(BROKERS) as BrokerName[],
      default: 'wsbench',
    },
  },
  duration: {
    description:
      'publishing time (publications = rate x duration); the window ends once every one arrived or 5 s later',
    default: '5s',
    max: '24h',
  },
  presets: {
    ci: { subscribers: 20, topics: 4, rate: 200, duration: '1s' },
    // The side-by-side table of docs/scenarios/pubsub.md.
    table: { publishers: 10, subscribers: 1000, topics: 10, rate: 100, duration: '10s' },
  },
  validate(p) {
    if (p.topicsPerSubscriber > p.topics) {
      return {
        parameter: 'topicsPerSubscriber',
        message: `${p.topicsPerSubscriber} is more than the ${p.topics} topics there are`,
      };
    }
    if (publicationsOf(p) < 1)
      return { parameter: 'duration', message: `${p.duration}ms at ${p.rate}/s publishes nothing` };
    return null;
  },
  builtInServerSkip: (p) =>
    p.broker === 'wsbench'
      ? null
      : `broker=${p.broker}: wsbench's own servers speak its pub/sub protocol; a ${p.broker} broker is a --server-cmd or --target`,
  // The probe of a broker offers what its clients will: graphql-ws closes a handshake without its own.
  subprotocols: (p) => BROKERS[p.broker].subprotocols,
  windowMs: () => undefined, // the clients end it: every publication arrived, or the drain is over
  // Connecting and subscribing every connection: 15 s, plus 10 ms per connection.
  readyTimeoutMs: (p) => 15_000 + 10 * (p.publishers + p.subscribers),

  server(ctx) {
    // The server half of docs/protocols/pubsub.md, on the stack's own pub/sub (ctx.publish, connection.subscribe).
    return {
      onMessage(connection, data) {
        const text = messageText(data);
        const frame = parseJson(text) as { pub?: unknown; sub?: unknown } | undefined;
        if (typeof frame?.pub === 'string') {
          // Forwarded as it came: subscribers read the topic and the payload from the same frame.
          ctx.publish(frame.pub, text);
        } else if (typeof frame?.sub === 'string') {
          connection.subscribe(frame.sub);
          connection.send(JSON.stringify({ subscribed: frame.sub }));
        }
      },
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const protocol: BrokerProtocol = BROKERS[p.broker];
    // Taken once, here: the delivery handlers record into them with no lookup.
    const { delivery, spread, delivered, duplicates, outOfOrder, misrouted, published } = ctx.recorders;
    let problem: string | null = null;
    const onProblem = (text: string): void => {
      if (problem !== null) return;
      problem = `pubsub (broker ${p.broker}): ${text}`;
      ctx.done();
    };

    const publisherCount = ctx.share(p.publishers);
    const firstPublisher = ctx.firstOfShare(p.publishers);
    const subscriberCount = ctx.share(p.subscribers);
    const firstSubscriber = ctx.firstOfShare(p.subscribers);
    const localSubscribersOf = new Array<number>(p.topics).fill(0);
    const tallies: SubscriberTally[] = [];
    let complete = 0;
    /** Set at the end: what arrives after the losses were counted counts nowhere (it would count twice). */
    let ended = false;
    let wake: () => void = () => undefined;
    const fairness = new DeliverySpread(
      (topic) => localSubscribersOf[topic]!,
      (us) => spread.recordUs(us),
    );

    const open = (index: number, onUnexpectedClose?: () => void): Promise<BrokerClient> =>
      protocol.connect((options) => ctx.connect(options), {
        clientId: `wsbench-${p.broker}-${index}`,
        onProblem,
        ...(onUnexpectedClose ? { onUnexpectedClose } : {}),
      });

    const publishers = await inBatches(publisherCount, (i) => open(firstPublisher + i));
    const subscribers = await inBatches(subscriberCount, async (i) => {
      const s = firstSubscriber + i;
      const topics = topicsOfSubscriber(s, p);
      const tally = new SubscriberTally(topics.reduce((sum, t) => sum + publicationsOnTopic(t, p), 0));
      tallies.push(tally);
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        if (++complete >= subscriberCount) wake();
      };
      // A subscriber whose connection is lost expects nothing more (wsbench counts it in connectionsLost).
      const client = await open(p.publishers + s, finish);
      for (const topic of topics) {
        localSubscribersOf[topic]! += 1;
        await client.subscribe(topicName(topic), (payload) => {
          if (ended) return;
          const nowUs = ctx.nowUs();
          const publication = decodePublication(payload);
          if (!publication || topicOf(publication.n, p) !== topic) {
            misrouted.add();
            return;
          }
          const arrival = tally.arrive(streamOf(publication.n, p), streamSeqOf(publication.n, p));
          if (arrival === 'duplicate') {
            duplicates.add();
            return;
          }
          if (arrival === 'late') outOfOrder.add();
          delivered.add();
          delivery.recordUs(nowUs - publication.intendedUs);
          fairness.arrive(publication.n, topic, nowUs);
          if (tally.complete) finish();
        });
      }
      if (tally.expected === 0) finish();
      return client;
    });

    // Counted by the subscribers, so that it adds up over client processes and --repeat rounds as `delivered` does.
    ctx.recorders.expected.add(tallies.reduce((sum, t) => sum + t.expected, 0));
    await ctx.ready();
    const total = publicationsOf(p);
    const localPublisher = (n: number): BrokerClient | undefined => publishers[publisherOf(n, p) - firstPublisher];
    await runSchedule({
      total,
      intervalUs: 1e6 / p.rate,
      size: p.size,
      nowUs: () => ctx.nowUs(),
      signal: ctx.signal,
      send(n, payload) {
        const publisher = localPublisher(n);
        if (!publisher) return;
        publisher.publish(topicName(topicOf(n, p)), payload);
        published.add();
      },
    });
    const end = streamEnd(ctx.signal, DRAIN_MS, () => complete >= subscriberCount || problem !== null);
    wake = end.wake;
    await end.finished;
    ended = true;
    ctx.done();
    ctx.recorders.missing.add(tallies.reduce((sum, t) => sum + Math.max(0, t.expected - t.distinct), 0));
    ctx.recorders.subscribersShort.add(tallies.filter((t) => !t.complete).length);
    await Promise.allSettled([...publishers, ...subscribers].map((c) => c.close()));
    if (problem !== null) throw new Error(problem);
  },

  recorders: {
    published: counter({ total: { header: 'published', description: 'publications sent by the publishers' } }),
    expected: counter({
      total: {
        header: 'expected',
        description: "what the subscribers should get: each topic's publications x its subscribers, from the schedule",
      },
    }),
    delivered: counter({
      total: {
        header: 'delivered',
        description: 'distinct publications that reached a subscriber (duplicates excluded)',
      },
    }),
    missing: counter({
      total: {
        header: 'lost',
        role: 'errors',
        description: 'publications a subscriber should have had and never got',
      },
    }),
    duplicates: counter({
      total: { header: 'dup', role: 'errors', description: 'publications a subscriber got more than once' },
    }),
    outOfOrder: counter({
      total: {
        header: 'order',
        role: 'errors',
        description: 'publications that arrived after a later one of the same publisher on the same topic',
      },
    }),
    misrouted: counter({
      total: {
        header: 'misrouted',
        role: 'errors',
        description: 'messages on a topic they were not published to, or not a publication',
      },
    }),
    subscribersShort: counter({
      total: { header: 'short subs', description: 'subscribers that got fewer publications than expected' },
    }),
    // Counted by wsbench itself: the connections it saw lost.
    connectionsLost: counter({ total: { header: 'conn lost', role: 'errors' } }),
    delivery: histogram({
      primary: ['p50', 'p99'],
      description: "from the publication's intended send time to its arrival at a subscriber",
    }),
    spread: histogram({
      stats: ['p50', 'p99', 'max', 'count'],
      label: 'spread',
      description:
        "fairness: the first to the last delivery of one publication among a client process's subscribers of its topic",
    }),
  },
  // Each compute's input typed, not inferred: one typed from the scenario would leave these keys unknown to `table`.
  metrics: {
    deliveredShare: {
      header: 'delivered/exp',
      unit: 'ratio',
      better: 'higher',
      role: 'detail',
      source: {
        custom: 'delivered / expected',
        compute: ({ measurements: { counters: c } }: MetricInput) =>
          (c.expected ?? 0) > 0 ? (c.delivered ?? 0) / c.expected! : null,
      },
    },
    deliveriesPerSec: {
      header: 'deliveries/s',
      unit: 'msg/s',
      better: 'higher',
      role: 'primary-rate',
      acrossRounds: 'mean',
      source: {
        custom: 'deliveries to all subscribers per second of publishing (publications / rate)',
        compute: ({ measurements, params }: MetricInput<{ rate: number; duration: number }>) =>
          perSecondOfPublishing(measurements.counters.delivered, params),
      },
    },
    // The table shows the server's CPU and RSS of every cell; these make them comparable metrics too.
    serverCpuPercent: RESOURCE_METRICS.serverCpu,
    serverRssBytes: RESOURCE_METRICS.serverRss,
    clientCpuPercent: RESOURCE_METRICS.clientCpu,
  },
  table: [
    'expected',
    'delivered',
    'missing',
    'duplicates',
    'outOfOrder',
    'deliveryP50Ms',
    'deliveryP99Ms',
    'deliveryMaxMs',
    'spreadP99Ms',
    'deliveriesPerSec',
  ],
  charts: [
    { kind: 'percentiles', histograms: ['delivery'] },
    { kind: 'percentiles', histograms: ['spread'], title: 'fairness: spread of one publication over its subscribers' },
    {
      kind: 'by-parameter',
      parameter: 'subscribers',
      metrics: ['deliveryP50Ms', 'deliveryP99Ms', 'spreadP99Ms'],
      title: 'delivery by subscribers',
    },
    { kind: 'resources' },
  ],
});

/** Opens `count` things `CONNECT_BATCH` at a time (a thousand handshakes at once would time each other out). */
async function inBatches<T>(count: number, open: (index: number) => Promise<T>): Promise<T[]> {
  const opened: T[] = [];
  for (let first = 0; first < count; first += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, i) => open(first + i));
    opened.push(...(await Promise.all(batch)));
  }
  return opened;
}
