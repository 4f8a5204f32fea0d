/**
 * The built-in scenarios, by name, as types: each one's parameters and the metrics its cells carry.
 * run('echo', { params }) checks `params` against them, and types the cells' `metrics` and `params`
 * (src/typed-results.ts). Generated from scenarios/*.ts by test/built-in-registry.ts (src/ must not
 * import scenarios/), and test/built-in-registry.test.ts fails when this file differs from what the
 * scenarios declare.
 */
import type { BooleanParameter, ChoiceParameter, DurationParameter, IntegerParameter, NumberParameter, SizeParameter } from './declaration-types.js';
import type { MetricDefinition, Scenario } from './scenario-types.js';

export interface BuiltInScenarios {
  chat: Scenario<
    {
      /** clients in the room (over all client processes) */ members: IntegerParameter;
      /** messages per second sent by all members together */ rate: NumberParameter;
      /** text bytes per message (besides sender, sequence, timestamp) */ payload: SizeParameter;
      /** server holds each message this long before broadcasting */ moderatorDelay: DurationParameter;
      /** concurrent: each message waits its own delay; serial: one moderator, one message at a time */ moderatorMode: ChoiceParameter<'concurrent' | 'serial'>;
      /** outgoing queue per connection */ queue: ChoiceParameter<'unlimited' | 'bounded'>;
      /** bounded queue: most messages waiting per connection */ queueLimit: IntegerParameter;
      /** bounded queue: most bytes waiting per connection (0 = no byte limit) */ queueLimitBytes: SizeParameter;
      /** bounded queue when full: wait (hold the broadcast) or drop */ queuePolicy: ChoiceParameter<'wait' | 'drop'>;
    },
    {
      /** sent (count) */ sent: MetricDefinition;
      /** expected (count) */ expected: MetricDefinition;
      /** distinct messages that arrived (duplicates excluded) (count) */ received: MetricDefinition;
      /** counted by receivers from sequence gaps, end markers included (count) */ dropped: MetricDefinition;
      /** messages missing from a receiver's sequence that the queue policy does not account for: every gap, except with queue bounded and queuePolicy drop, where only the gaps beyond the server's own drop count (droppedByQueue on its stats route; a server that does not say: every gap) (count) */ droppedAgainstPolicy: MetricDefinition;
      /** dup (count) */ duplicates: MetricDefinition;
      /** neither received nor seen missing: receivers that lost their connection or timed out (count) */ unaccounted: MetricDefinition;
      /** after window (count) */ receivedAfterWindow: MetricDefinition;
      /** the server's own count of messages its bounded queues dropped (cross-check for dropped) (count) */ droppedByServer: MetricDefinition;
      /** server in (count) */ messagesInAtServer: MetricDefinition;
      /** server out (count) */ deliveredByServer: MetricDefinition;
      /** queued (count) */ queuedInApp: MetricDefinition;
      /** stalls (count) */ queueStalls: MetricDefinition;
      /** deliveries the server stack refused to queue (count) */ stackDrops: MetricDefinition;
      /** messages received by all members per second of the window (msg/s) */ deliveriesPerSec: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyP50Ms: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyP90Ms: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyP99Ms: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyP999Ms: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyMaxMs: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyMeanMs: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyMinMs: MetricDefinition;
      /** from the intended send time to arrival at a receiver (ms) */ latencyStdevMs: MetricDefinition;
      /** from the intended send time to arrival at a receiver (count) */ latencySamples: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP50Ms: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP90Ms: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP99Ms: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP999Ms: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMaxMs: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMeanMs: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMinMs: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldStdevMs: MetricDefinition;
      /** from arrival at the server to hand-off to the stack, per delivery (count) */ serverHoldSamples: MetricDefinition;
      /** receivers that did not get every end marker before the drain timeout (count) */ receiversUnfinished: MetricDefinition;
      /** errors (count) */ errors: MetricDefinition;
      /** lost (count) */ connectionsLost: MetricDefinition;
    }
  >;
  churn: Scenario<
    {
      /** new connections a second, over all client processes (open loop: due on schedule whatever happened before) */ rate: IntegerParameter;
      /** echo round trips each connection makes before it closes */ messages: IntegerParameter;
      /** size of each message */ payload: SizeParameter;
      /** a connection not open by then counts as failed (timeout); its echoes get as long again */ handshakeTimeout: DurationParameter;
      /** loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections of the schedule above 1000) */ sourceAddresses: IntegerParameter;
    },
    {
      /** hs/s (/s) */ handshakesPerSec: MetricDefinition;
      /** tried (count) */ attempts: MetricDefinition;
      /** opened (count) */ opened: MetricDefinition;
      /** handshakes that did not open, for any reason (count) */ handshakeFailed: MetricDefinition;
      /** fail refused (count) */ handshakeFailedRefused: MetricDefinition;
      /** fail reset (count) */ handshakeFailedReset: MetricDefinition;
      /** fail timeout (count) */ handshakeFailedTimeout: MetricDefinition;
      /** fail tls (count) */ handshakeFailedTls: MetricDefinition;
      /** fail httpStatus (count) */ handshakeFailedHttpStatus: MetricDefinition;
      /** fail other (count) */ handshakeFailedOther: MetricDefinition;
      /** opened connections whose echoes broke off (closed, or none within the timeout) (count) */ exchangeFailed: MetricDefinition;
      /** from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP50Ms: MetricDefinition;
      /** from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP90Ms: MetricDefinition;
      /** from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP99Ms: MetricDefinition;
      /** from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeMaxMs: MetricDefinition;
      /** from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (count) */ handshakeSamples: MetricDefinition;
      /** connect() to the socket's connect event (ms) */ tcpConnectP50Ms: MetricDefinition;
      /** connect() to the socket's connect event (ms) */ tcpConnectP99Ms: MetricDefinition;
      /** connect event to secureConnect (TLS cells only) (ms) */ tlsHandshakeP50Ms: MetricDefinition;
      /** connect event to secureConnect (TLS cells only) (ms) */ tlsHandshakeP99Ms: MetricDefinition;
      /** socket ready (TCP, or TLS) to the WebSocket open (socket.io: to its connect event) (ms) */ upgradeP50Ms: MetricDefinition;
      /** socket ready (TCP, or TLS) to the WebSocket open (socket.io: to its connect event) (ms) */ upgradeP99Ms: MetricDefinition;
      /** the connection's echo round trips, one after another (ms) */ exchangeP50Ms: MetricDefinition;
      /** the connection's echo round trips, one after another (ms) */ exchangeP99Ms: MetricDefinition;
      /** opened connections whose client stack shows the total only (count) */ stepsHidden: MetricDefinition;
      /** srv µs/hs (us) */ serverCpuPerHandshakeUs: MetricDefinition;
      /** accepted (count) */ accepted: MetricDefinition;
    }
  >;
  echo: Scenario<
    {
      /** open connections (over all client processes) */ connections: IntegerParameter;
      /** message size */ payload: SizeParameter;
      /** send binary frames instead of text */ binary: BooleanParameter;
      /** messages in flight per connection */ inflight: IntegerParameter;
      /** messages per connection, then stop (0 = run for the duration) */ messages: IntegerParameter;
    },
    {
      /** round trip: send to reply, per message (ms) */ rttP50Ms: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttP90Ms: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttP99Ms: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttP999Ms: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttMaxMs: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttMeanMs: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttMinMs: MetricDefinition;
      /** round trip: send to reply, per message (ms) */ rttStdevMs: MetricDefinition;
      /** round trip: send to reply, per message (count) */ rttSamples: MetricDefinition;
      /** replies received per second of the window (msg/s) */ messagesPerSec: MetricDefinition;
      /** payload MB/s (MB/s) */ payloadMegabytesPerSec: MetricDefinition;
      /** sent (count) */ sent: MetricDefinition;
      /** received (count) */ received: MetricDefinition;
      /** wrong-sized replies and connections that closed on their own (count) */ errors: MetricDefinition;
      /** lost (count) */ connectionsLost: MetricDefinition;
      /** requests still without a reply when the drain ended (count) */ unansweredAtEnd: MetricDefinition;
    }
  >;
  fanout: Scenario<
    {
      /** connected clients over all client processes; each value of a sweep is one step of the load ladder */ connections: IntegerParameter;
      /** time between two price ticks */ interval: DurationParameter;
      /** connections opened per second, over all client processes */ connectRate: IntegerParameter;
      /** a connection not open after this counts as failed (ETIMEDOUT) */ connectTimeout: DurationParameter;
      /** loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000) */ sourceAddresses: IntegerParameter;
    },
    {
      /** conn (count) */ connected: MetricDefinition;
      /** fail (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (count) */ connectFailedOther: MetricDefinition;
      /** connections lost during the run (count) */ dropped: MetricDefinition;
      /** the seed's error count (count) */ errors: MetricDefinition;
      /** ticks (count) */ ticksSent: MetricDefinition;
      /** sent (count) */ messagesSentByServer: MetricDefinition;
      /** recv (count) */ received: MetricDefinition;
      /** ticks a kept connection never received (count) */ missing: MetricDefinition;
      /** out of order (count) */ outOfOrder: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayP50Ms: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayP90Ms: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayP99Ms: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayP999Ms: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayMaxMs: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayMeanMs: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayMinMs: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (ms) */ delayStdevMs: MetricDefinition;
      /** one-way: the tick's due time on the server to its arrival (count) */ delaySamples: MetricDefinition;
      /** how late the server's timer fired for a tick (ms) */ serverTickLatenessP99Ms: MetricDefinition;
      /** msg/s (msg/s) */ messagesPerSec: MetricDefinition;
      /** avg B (bytes) */ avgMessageBytes: MetricDefinition;
      /** srv CPU% (%) */ serverCpuPercent: MetricDefinition;
      /** srv RSS (bytes) */ serverRssBytes: MetricDefinition;
      /** cli CPU% (%) */ clientCpuPercent: MetricDefinition;
      /** cli RSS (bytes) */ clientRssBytes: MetricDefinition;
      /** cli MB (MB) */ clientRssMB: MetricDefinition;
      /** cli B/conn (bytes) */ clientRssPerConnectionBytes: MetricDefinition;
      /** cli KB/conn (KB) */ clientRssPerConnectionKB: MetricDefinition;
      /** srv B/conn (bytes) */ serverRssPerConnectionBytes: MetricDefinition;
      /** srv KB/conn (KB) */ serverRssPerConnectionKB: MetricDefinition;
    }
  >;
  firehose: Scenario<
    {
      /** update messages per second (0 = as fast as backpressure allows) */ rate: IntegerParameter;
      /** largest frame payload; longer messages are sent as several frames */ fragmentSize: SizeParameter;
    },
    {
      /** messages received in the window, per second (msg/s) */ messagesPerSec: MetricDefinition;
      /** message bytes received in the window, per second (bytes/s) */ bytesPerSec: MetricDefinition;
      /** message bytes received in the window (MB/s) */ megabytesPerSec: MetricDefinition;
      /** rx msgs (count) */ rxMessages: MetricDefinition;
      /** rx bytes (bytes) */ rxBytes: MetricDefinition;
      /** the backlog read after the window closed (count) */ rxMessagesAfterWindow: MetricDefinition;
      /** tx msgs (count) */ txMessages: MetricDefinition;
      /** tx bytes (bytes) */ txBytes: MetricDefinition;
      /** closes the client did not ask for (count) */ closeEvents: MetricDefinition;
      /** the server's reply to unsubscribe never came (count) */ drainTimedOut: MetricDefinition;
      /** smallest message received (bytes) */ messageBytesMin: MetricDefinition;
      /** avg B (bytes) */ messageBytesAvg: MetricDefinition;
      /** largest message received (bytes) */ messageBytesMax: MetricDefinition;
      /** median message received (in the window) (bytes) */ messageBytesP50: MetricDefinition;
      /** rx err (count) */ receiveErrors: MetricDefinition;
      /** frm/msg (ratio) */ framesPerMessageAvg: MetricDefinition;
      /** max frm (count) */ framesPerMessageMax: MetricDefinition;
      /** fast path (count) */ fastPathMessages: MetricDefinition;
      /** assembled (count) */ assembledMessages: MetricDefinition;
      /** fast % (%) */ fastPathPercent: MetricDefinition;
      /** asm µs (us) */ assemblyAvgUs: MetricDefinition;
      /** asm p99 µs (us) */ assemblyP99Us: MetricDefinition;
      /** asm max µs (us) */ assemblyMaxUs: MetricDefinition;
      /** asm total ms (ms) */ assemblyTotalMs: MetricDefinition;
      /** wire msgs (count) */ wireMessages: MetricDefinition;
      /** wire payload (bytes) */ wirePayloadBytes: MetricDefinition;
      /** data frames (count) */ wireDataFrames: MetricDefinition;
      /** control frames (count) */ wireControlFrames: MetricDefinition;
      /** wire bytes (bytes) */ wireBytes: MetricDefinition;
      /** server msgs (count) */ serverMessagesSent: MetricDefinition;
      /** server frames (count) */ serverFramesSent: MetricDefinition;
      /** server bytes (bytes) */ serverBytesSent: MetricDefinition;
      /** stack drops (count) */ stackDrops: MetricDefinition;
      /** cli CPU% (%) */ clientCpuPercent: MetricDefinition;
      /** cli RSS (bytes) */ clientRssBytes: MetricDefinition;
    }
  >;
  idle: Scenario<
    {
      /** open connections over all client processes */ connections: IntegerParameter;
      /** time between two pings on one connection */ interval: DurationParameter;
      /** connections opened per second, over all client processes */ connectRate: IntegerParameter;
      /** a connection not open after this counts as failed (ETIMEDOUT) */ connectTimeout: DurationParameter;
      /** loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000) */ sourceAddresses: IntegerParameter;
    },
    {
      /** conn (count) */ connected: MetricDefinition;
      /** fail (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (count) */ connectFailedOther: MetricDefinition;
      /** connections lost during the run (count) */ dropped: MetricDefinition;
      /** pings without a pong when the drain ended (count) */ unanswered: MetricDefinition;
      /** pongs that were not the ping sent, or came unasked (count) */ badReplies: MetricDefinition;
      /** pings (count) */ pingsSent: MetricDefinition;
      /** pongs (count) */ pongsReceived: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttP50Ms: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttP90Ms: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttP99Ms: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttP999Ms: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttMaxMs: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttMeanMs: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttMinMs: MetricDefinition;
      /** ping round trip, from when the ping was due (ms) */ rttStdevMs: MetricDefinition;
      /** ping round trip, from when the ping was due (count) */ rttSamples: MetricDefinition;
      /** connections the server held when the window opened (count) */ serverOpenAtWindowStart: MetricDefinition;
      /** srv B/conn (bytes) */ serverRssPerConnectionBytes: MetricDefinition;
      /** srv KB/conn (KB) */ serverRssPerConnectionKB: MetricDefinition;
      /** srv CPU%/1k conn (%) */ serverCpuPer1000Connections: MetricDefinition;
      /** srv CPU% (%) */ serverCpuPercent: MetricDefinition;
      /** srv RSS (bytes) */ serverRssBytes: MetricDefinition;
      /** cli CPU% (%) */ clientCpuPercent: MetricDefinition;
    }
  >;
  pubsub: Scenario<
    {
      /** publishing connections (over all client processes) */ publishers: IntegerParameter;
      /** subscribing connections (over all client processes) */ subscribers: IntegerParameter;
      /** topics the publications are spread over */ topics: IntegerParameter;
      /** topics each subscriber listens to (at most topics) */ topicsPerSubscriber: IntegerParameter;
      /** publications per second, all publishers together */ rate: IntegerParameter;
      /** bytes of each publication (its number, its send time, padding) */ size: SizeParameter;
      /** the protocol spoken to the server: wsbench's own (the built-in stacks), or a broker's (a --server-cmd or --target that is one) */ broker: ChoiceParameter<'wsbench' | 'nats' | 'mqtt' | 'graphql-ws' | 'stomp'>;
    },
    {
      /** publications sent by the publishers (count) */ published: MetricDefinition;
      /** what the subscribers should get: each topic's publications x its subscribers, from the schedule (count) */ expected: MetricDefinition;
      /** distinct publications that reached a subscriber (duplicates excluded) (count) */ delivered: MetricDefinition;
      /** delivered/exp (ratio) */ deliveredShare: MetricDefinition;
      /** publications a subscriber should have had and never got (count) */ missing: MetricDefinition;
      /** publications a subscriber got more than once (count) */ duplicates: MetricDefinition;
      /** publications that arrived after a later one of the same publisher on the same topic (count) */ outOfOrder: MetricDefinition;
      /** messages on a topic they were not published to, or not a publication (count) */ misrouted: MetricDefinition;
      /** subscribers that got fewer publications than expected (count) */ subscribersShort: MetricDefinition;
      /** conn lost (count) */ connectionsLost: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP50Ms: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP90Ms: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP99Ms: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP999Ms: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMaxMs: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMeanMs: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMinMs: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryStdevMs: MetricDefinition;
      /** from the publication's intended send time to its arrival at a subscriber (count) */ deliverySamples: MetricDefinition;
      /** fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadP50Ms: MetricDefinition;
      /** fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadP99Ms: MetricDefinition;
      /** fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadMaxMs: MetricDefinition;
      /** fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (count) */ spreadSamples: MetricDefinition;
      /** deliveries/s (msg/s) */ deliveriesPerSec: MetricDefinition;
      /** srv CPU% (%) */ serverCpuPercent: MetricDefinition;
      /** srv RSS (bytes) */ serverRssBytes: MetricDefinition;
      /** cli CPU% (%) */ clientCpuPercent: MetricDefinition;
    }
  >;
  'push-vs-poll': Scenario<
    {
      /** continuous: K orders at once, per iteration (seed test 1); sustained: steady flow, one approach at a time (seed test 2) */ test: ChoiceParameter<'continuous' | 'sustained'>;
      /** REST poll interval (fixed rate, one request at a time) */ pollInterval: DurationParameter;
      /** continuous: batches placed */ iterations: IntegerParameter;
      /** continuous: orders placed at once per batch (K) */ orders: IntegerParameter;
      /** sustained: orders placed evenly over each phase */ samples: IntegerParameter;
    },
    {
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP50Ms: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP90Ms: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP99Ms: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP999Ms: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMaxMs: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMeanMs: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMinMs: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsStdevMs: MetricDefinition;
      /** subscriber: from the creation of a batch on the server until every update of it was seen (count) */ wsSamples: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP50Ms: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP90Ms: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP99Ms: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP999Ms: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMaxMs: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMeanMs: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMinMs: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (ms) */ restStdevMs: MetricDefinition;
      /** poller: from the creation of a batch on the server until every update of it was seen (count) */ restSamples: MetricDefinition;
      /** batches (continuous) or orders (sustained) placed while the subscriber watched (count) */ wsExpectedSamples: MetricDefinition;
      /** batches (continuous) or orders (sustained) placed while the poller watched (count) */ restExpectedSamples: MetricDefinition;
      /** gain ms (ms) */ improvementMs: MetricDefinition;
      /** gain % (%) */ improvementPercent: MetricDefinition;
      /** updates seen before their creation time: the one-clock assumption broke (count) */ negativeLatencies: MetricDefinition;
      /** HTTP reqs (count) */ restRequests: MetricDefinition;
      /** empty (count) */ restEmptyPolls: MetricDefinition;
      /** REST updates (count) */ restUpdates: MetricDefinition;
      /** polling ms (ms) */ restPollActiveMs: MetricDefinition;
      /** polls due (count) */ restPollsScheduled: MetricDefinition;
      /** polls late (count) */ restPollsBehindSchedule: MetricDefinition;
      /** REST wire up (bytes) */ restWireBytesUp: MetricDefinition;
      /** REST wire down (bytes) */ restWireBytesDown: MetricDefinition;
      /** REST up B/upd (bytes) */ restWireBytesUpPerUpdate: MetricDefinition;
      /** REST down B/upd (bytes) */ restWireBytesDownPerUpdate: MetricDefinition;
      /** poll bytes both ways, headers included (bytes) */ restWireBytesPerUpdate: MetricDefinition;
      /** REST body B/upd (bytes) */ restBodyBytesDownPerUpdate: MetricDefinition;
      /** WS updates (count) */ wsUpdates: MetricDefinition;
      /** WS down B/upd (bytes) */ wsPayloadBytesDownPerUpdate: MetricDefinition;
      /** WS up B/upd (bytes) */ wsPayloadBytesUpPerUpdate: MetricDefinition;
      /** every byte received on the WebSocket after the upgrade (bytes) */ wsWireBytesDownPerUpdate: MetricDefinition;
      /** CPU% ws (%) */ serverCpuPercentWebsocket: MetricDefinition;
      /** CPU% rest (%) */ serverCpuPercentRest: MetricDefinition;
      /** polls served (count) */ serverPollsServed: MetricDefinition;
      /** updates created (count) */ serverUpdatesCreated: MetricDefinition;
      /** orders placed (count) */ placeRequests: MetricDefinition;
      /** errors (count) */ errors: MetricDefinition;
      /** lost (count) */ connectionsLost: MetricDefinition;
    }
  >;
  'reconnect-storm': Scenario<
    {
      /** clients over all client processes, each holding one connection */ connections: IntegerParameter;
      /** when a dropped client tries again: immediate (at once, after every failure too), fixed (delay before every attempt), backoff (a random wait up to backoffBase x 2^attempt, at most backoffCap) */ policy: ChoiceParameter<'immediate' | 'fixed' | 'backoff'>;
      /** the fixed policy's wait before every attempt */ delay: DurationParameter;
      /** the backoff policy's first ceiling, doubled after every failed attempt */ backoffBase: DurationParameter;
      /** the backoff policy's largest ceiling */ backoffCap: DurationParameter;
      /** when in the window wsbench kills the server */ restartAt: DurationParameter;
      /** from the kill until wsbench starts the server again */ downtime: DurationParameter;
      /** a reconnect attempt not open by then fails (timeout) */ attemptTimeout: DurationParameter;
      /** connections opened per second, over all client processes */ connectRate: IntegerParameter;
      /** a connection not open after this counts as failed (ETIMEDOUT) */ connectTimeout: DurationParameter;
      /** loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000) */ sourceAddresses: IntegerParameter;
    },
    {
      /** clients connected before the window opened (count) */ connected: MetricDefinition;
      /** fail (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (count) */ connectFailedOther: MetricDefinition;
      /** connections dropped under the clients (by the kill, as a rule: one per client) (count) */ lost: MetricDefinition;
      /** clients connected again after a drop (count) */ back: MetricDefinition;
      /** clients still without a connection when the window ended (count) */ neverBack: MetricDefinition;
      /** from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP50Ms: MetricDefinition;
      /** from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP90Ms: MetricDefinition;
      /** from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP99Ms: MetricDefinition;
      /** from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackMaxMs: MetricDefinition;
      /** from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (count) */ timeToBackSamples: MetricDefinition;
      /** from the kill until wsbench first saw the new server serving (its own server: the ready signal; a command: its first handshake answered) (ms) */ serverDownMs: MetricDefinition;
      /** reconnect attempts, the successful ones included (count) */ attempts: MetricDefinition;
      /** reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down) (count) */ attemptsFailed: MetricDefinition;
      /** failed reconnect attempts: refused (count) */ attemptsRefused: MetricDefinition;
      /** failed reconnect attempts: reset (count) */ attemptsReset: MetricDefinition;
      /** failed reconnect attempts: timeout (count) */ attemptsTimeout: MetricDefinition;
      /** failed reconnect attempts: tls (count) */ attemptsTls: MetricDefinition;
      /** failed reconnect attempts: httpStatus (count) */ attemptsHttpStatus: MetricDefinition;
      /** failed reconnect attempts: other (count) */ attemptsOther: MetricDefinition;
      /** attempts under way when the window closed (neither open nor failed) (count) */ attemptsAbandoned: MetricDefinition;
      /** the highest of the server's 250 ms CPU samples in the window (its old and new process alike) (%) */ serverCpuPeak: MetricDefinition;
      /** the server's largest RSS sample in the window (bytes) */ serverRssPeak: MetricDefinition;
      /** srv CPU% (%) */ serverCpuPercent: MetricDefinition;
      /** cli CPU% (%) */ clientCpuPercent: MetricDefinition;
    }
  >;
  'slow-consumer': Scenario<
    {
      /** connected clients over all client processes */ connections: IntegerParameter;
      /** share of the clients that read slowly (0.1 = 10 %), spread evenly */ slowShare: NumberParameter;
      /** stop: slow clients stop reading; rate: they read slowReadRate bytes a second */ slowMode: ChoiceParameter<'stop' | 'rate'>;
      /** bytes a second a slow client reads in slowMode rate */ slowReadRate: SizeParameter;
      /** slow clients read normally this long into the stream first */ stopAfter: DurationParameter;
      /** then read slowly this long, and normally again after (0 = until the stream ends) */ stopFor: DurationParameter;
      /** time between two messages of the stream */ interval: DurationParameter;
      /** size of each message (a small JSON header padded with spaces) */ messageSize: SizeParameter;
      /** per-connection send queue of stacks that limit it (uWS maxBackpressure, Bun backpressureLimit; 0 = the limit wsbench pins, 512 MiB); the others buffer without limit */ backpressureLimit: SizeParameter;
      /** what such a stack does at the limit: drop the message, or close the connection */ onLimit: ChoiceParameter<'drop' | 'close'>;
      /** connections opened per second, over all client processes */ connectRate: IntegerParameter;
      /** a connection not open after this counts as failed (ETIMEDOUT) */ connectTimeout: DurationParameter;
      /** loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000) */ sourceAddresses: IntegerParameter;
    },
    {
      /** conn (count) */ connected: MetricDefinition;
      /** slow (count) */ slowConnected: MetricDefinition;
      /** fail (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (count) */ connectFailedOther: MetricDefinition;
      /** healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayP50Ms: MetricDefinition;
      /** healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayP99Ms: MetricDefinition;
      /** healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayMaxMs: MetricDefinition;
      /** slow clients, one-way, their drain at the end included (ms) */ slowDelayP50Ms: MetricDefinition;
      /** slow clients, one-way, their drain at the end included (ms) */ slowDelayP99Ms: MetricDefinition;
      /** slow clients, one-way, their drain at the end included (ms) */ slowDelayMaxMs: MetricDefinition;
      /** recv (count) */ healthyReceived: MetricDefinition;
      /** messages a healthy client never received (count) */ healthyMissing: MetricDefinition;
      /** messages missing from the middle of a healthy client's sequence (dropped by the server) (count) */ healthySkipped: MetricDefinition;
      /** healthy clients whose connection closed during the stream (count) */ healthyClosed: MetricDefinition;
      /** slow recv (count) */ slowReceived: MetricDefinition;
      /** messages a slow client never received, its drain at the end included (count) */ slowMissing: MetricDefinition;
      /** messages missing from the middle of a slow client's sequence (dropped by the server) (count) */ slowSkipped: MetricDefinition;
      /** slow clients whose connection the server closed during the stream (count) */ slowClosed: MetricDefinition;
      /** from the stream's start to a slow client's connection closing (ms) */ slowClosedByServerAfterP50Ms: MetricDefinition;
      /** from the stream's start to a slow client's connection closing (ms) */ slowClosedByServerAfterMaxMs: MetricDefinition;
      /** srv sent slow (count) */ serverSentSlow: MetricDefinition;
      /** messages to slow clients the stack refused to queue (count) */ serverDroppedSlow: MetricDefinition;
      /** messages to healthy clients the stack refused to queue (count) */ serverDroppedHealthy: MetricDefinition;
      /** srv queue MB (MB) */ serverSlowQueuedPeakMB: MetricDefinition;
      /** srv queue healthy MB (MB) */ serverHealthyQueuedPeakMB: MetricDefinition;
      /** srv RSS growth MB (MB) */ serverRssGrowthMB: MetricDefinition;
      /** growth of the server's queue for slow clients, as the stream reports it (over the window: its level at the stream's end, per second) (bytes/s) */ slowQueueGrowth: MetricDefinition;
      /** srv RSS MB (MB) */ serverRssMB: MetricDefinition;
    }
  >;
  'ticker-orders': Scenario<
    {
      /** time between two price ticks */ tickInterval: DurationParameter;
      /** trading clients (over all client processes) */ connections: IntegerParameter;
      /** stock symbols priced on every tick */ symbols: IntegerParameter;
    },
    {
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttP50Ms: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttP90Ms: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttP99Ms: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttP999Ms: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttMaxMs: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttMeanMs: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttMinMs: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (ms) */ orderRttStdevMs: MetricDefinition;
      /** order round trip: from sending the order to its acknowledgement (count) */ orderRttSamples: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP50Ms: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP90Ms: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP99Ms: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP999Ms: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMaxMs: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMeanMs: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMinMs: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckStdevMs: MetricDefinition;
      /** from the tick's intended broadcast time to the acknowledgement of its order (count) */ tickToAckSamples: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP50Ms: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP90Ms: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP99Ms: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP999Ms: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMaxMs: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMeanMs: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMinMs: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayStdevMs: MetricDefinition;
      /** from the tick's intended broadcast time to its arrival at a client (count) */ tickDelaySamples: MetricDefinition;
      /** orders (count) */ ordersSent: MetricDefinition;
      /** acked (count) */ ordersAcked: MetricDefinition;
      /** orders still without an acknowledgement when the drain ended (count) */ ordersUnanswered: MetricDefinition;
      /** orders acknowledged per second of the window (msg/s) */ ordersPerSec: MetricDefinition;
      /** ticks (count) */ ticksReceived: MetricDefinition;
      /** ticks a client never got (sequence gaps) (count) */ ticksMissed: MetricDefinition;
      /** dup ticks (count) */ ticksDuplicated: MetricDefinition;
      /** broadcast (count) */ ticksBroadcast: MetricDefinition;
      /** nominal ticks (count) */ ticksNominalPerConnection: MetricDefinition;
      /** server orders (count) */ ordersReceivedByServer: MetricDefinition;
      /** how late the server's tick timer fired (ms) */ serverTickTimerLagP99Ms: MetricDefinition;
      /** how late the server's tick timer fired (ms) */ serverTickTimerLagMaxMs: MetricDefinition;
      /** errors (count) */ errors: MetricDefinition;
      /** lost (count) */ connectionsLost: MetricDefinition;
    }
  >;
}

/** The name of a built-in scenario: run('echo') or `wsbench run echo`. */
export type BuiltInScenarioName = keyof BuiltInScenarios;

/** @deprecated Use BuiltInScenarios: `BuiltInScenarios['echo']['parameters']` is what this gave for 'echo'. */
export type BuiltInScenarioParameters = { [N in BuiltInScenarioName]: BuiltInScenarios[N]['parameters'] };
