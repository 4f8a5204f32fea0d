/**
 * The built-in scenarios, by name, as types: each one's parameters and the metrics its cells carry.
 * run('echo', { params }) checks `params` against them, and types the cells' `metrics` and `params`
 * (src/parent/results/typed-results.ts). Generated from scenarios/*.ts by tools/built-in-scenarios.ts (src/ must
 * not import scenarios/; `npm run generate` writes it), and test/built-in-scenarios.test.ts fails when this file
 * differs from what the scenarios declare.
 */
import type { BooleanParameter, ChoiceParameter, DurationParameter, IntegerParameter, NumberParameter, SizeParameter, StagesParameter } from '../../shared/types/declaration-types.js';
import type { MetricDefinition, Scenario } from '../../shared/types/scenario-types.js';

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
      /** sent (counter `sent`) (count) */ sent: MetricDefinition;
      /** distinct messages that arrived (duplicates excluded) (counter `received`) (count) */ received: MetricDefinition;
      /** messages received by all members per second of the window (counter `received`, per second of the window) (msg/s) */ deliveriesPerSec: MetricDefinition;
      /** counted by receivers from sequence gaps, end markers included (counter `dropped`) (count) */ dropped: MetricDefinition;
      /** dup (counter `duplicates`) (count) */ duplicates: MetricDefinition;
      /** after window (counter `receivedAfterWindow`) (count) */ receivedAfterWindow: MetricDefinition;
      /** the server's own count of messages its bounded queues dropped (cross-check for dropped) (counter `droppedByQueue`, server side) (count) */ droppedByServer: MetricDefinition;
      /** server in (counter `messagesIn`, server side) (count) */ messagesInAtServer: MetricDefinition;
      /** server out (counter `delivered`, server side) (count) */ deliveredByServer: MetricDefinition;
      /** queued (counter `queuedInApp`, server side) (count) */ queuedInApp: MetricDefinition;
      /** stalls (counter `stalls`, server side) (count) */ queueStalls: MetricDefinition;
      /** deliveries the server stack refused to queue (counter `stackDrops`, server side) (count) */ stackDrops: MetricDefinition;
      /** median (p50) of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyP50Ms: MetricDefinition;
      /** p90 of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyP90Ms: MetricDefinition;
      /** p99 of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyP99Ms: MetricDefinition;
      /** p99.9 of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyP999Ms: MetricDefinition;
      /** maximum of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyMaxMs: MetricDefinition;
      /** mean of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyMeanMs: MetricDefinition;
      /** minimum of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyMinMs: MetricDefinition;
      /** standard deviation of `latency`: from the intended send time to arrival at a receiver (ms) */ latencyStdevMs: MetricDefinition;
      /** samples in `latency`: from the intended send time to arrival at a receiver (count) */ latencySamples: MetricDefinition;
      /** median (p50) of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP50Ms: MetricDefinition;
      /** p90 of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP90Ms: MetricDefinition;
      /** p99 of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP99Ms: MetricDefinition;
      /** p99.9 of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldP999Ms: MetricDefinition;
      /** maximum of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMaxMs: MetricDefinition;
      /** mean of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMeanMs: MetricDefinition;
      /** minimum of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldMinMs: MetricDefinition;
      /** standard deviation of the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (ms) */ serverHoldStdevMs: MetricDefinition;
      /** samples in the server's `serverHold`: from arrival at the server to hand-off to the stack, per delivery (count) */ serverHoldSamples: MetricDefinition;
      /** receivers that did not get every end marker before the drain timeout (counter `receiversUnfinished`) (count) */ receiversUnfinished: MetricDefinition;
      /** errors (counter `errors`) (count) */ errors: MetricDefinition;
      /** lost (counter `connectionsLost`) (count) */ connectionsLost: MetricDefinition;
      /** messages sent x (members - 1): every message goes to every other member (count) */ expected: MetricDefinition;
      /** messages missing from a receiver's sequence that the queue policy does not account for: every gap, except with queue bounded and queuePolicy drop, where only the gaps beyond the server's own drop count (droppedByQueue on its stats route; a server that does not say: every gap) (dropped, less droppedByServer when queue is bounded and queuePolicy is drop) (count) */ droppedAgainstPolicy: MetricDefinition;
      /** neither received nor seen missing: receivers that lost their connection or timed out (expected - received - dropped) (count) */ unaccounted: MetricDefinition;
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
      /** tried (counter `attempts`) (count) */ attempts: MetricDefinition;
      /** opened (counter `opened`) (count) */ opened: MetricDefinition;
      /** handshakes that did not open, for any reason (counter `handshakeFailed`) (count) */ handshakeFailed: MetricDefinition;
      /** fail refused (counter `handshakeFailedRefused`) (count) */ handshakeFailedRefused: MetricDefinition;
      /** fail reset (counter `handshakeFailedReset`) (count) */ handshakeFailedReset: MetricDefinition;
      /** fail timeout (counter `handshakeFailedTimeout`) (count) */ handshakeFailedTimeout: MetricDefinition;
      /** fail tls (counter `handshakeFailedTls`) (count) */ handshakeFailedTls: MetricDefinition;
      /** fail httpStatus (counter `handshakeFailedHttpStatus`) (count) */ handshakeFailedHttpStatus: MetricDefinition;
      /** fail other (counter `handshakeFailedOther`) (count) */ handshakeFailedOther: MetricDefinition;
      /** opened connections whose echoes broke off (closed, or none within the timeout) (counter `exchangeFailed`) (count) */ exchangeFailed: MetricDefinition;
      /** median (p50) of `handshake`: from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP50Ms: MetricDefinition;
      /** p90 of `handshake`: from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP90Ms: MetricDefinition;
      /** p99 of `handshake`: from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeP99Ms: MetricDefinition;
      /** maximum of `handshake`: from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (ms) */ handshakeMaxMs: MetricDefinition;
      /** samples in `handshake`: from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it (count) */ handshakeSamples: MetricDefinition;
      /** median (p50) of `tcpConnect`: connect() to the socket's connect event (ms) */ tcpConnectP50Ms: MetricDefinition;
      /** p99 of `tcpConnect`: connect() to the socket's connect event (ms) */ tcpConnectP99Ms: MetricDefinition;
      /** median (p50) of `tlsHandshake`: connect event to secureConnect (TLS cells only) (ms) */ tlsHandshakeP50Ms: MetricDefinition;
      /** p99 of `tlsHandshake`: connect event to secureConnect (TLS cells only) (ms) */ tlsHandshakeP99Ms: MetricDefinition;
      /** median (p50) of `upgrade`: socket ready (TCP, or TLS) to the WebSocket open (socket.io: to its connect event) (ms) */ upgradeP50Ms: MetricDefinition;
      /** p99 of `upgrade`: socket ready (TCP, or TLS) to the WebSocket open (socket.io: to its connect event) (ms) */ upgradeP99Ms: MetricDefinition;
      /** median (p50) of `exchange`: the connection's echo round trips, one after another (ms) */ exchangeP50Ms: MetricDefinition;
      /** p99 of `exchange`: the connection's echo round trips, one after another (ms) */ exchangeP99Ms: MetricDefinition;
      /** opened connections whose client stack shows the total only (counter `stepsHidden`) (count) */ stepsHidden: MetricDefinition;
      /** accepted (counter `accepted`, server side) (count) */ accepted: MetricDefinition;
      /** connections opened / window (the schedule and the last connections' drain) (/s) */ handshakesPerSec: MetricDefinition;
      /** server CPU time in the window (mean CPU % of one core x window, from /proc) / connections its server half accepted (us) */ serverCpuPerHandshakeUs: MetricDefinition;
    }
  >;
  echo: Scenario<
    {
      /** open connections (over all client processes) */ connections: IntegerParameter;
      /** message size */ payload: SizeParameter;
      /** send binary frames instead of text */ binary: BooleanParameter;
      /** messages in flight per connection (closed loop) */ inflight: IntegerParameter;
      /** messages per connection, then stop (closed loop; 0 = run for the duration) */ messages: IntegerParameter;
      /** messages per second over all connections, each sent when it is due whatever came back (the open model); 0: the closed loop */ rate: IntegerParameter;
      /** messages per second on each connection (the open model), in place of rate */ ratePerConnection: NumberParameter;
      /** how the open model spaces its sends: evenly, or with exponential gaps (a Poisson process, from seed) */ arrivals: ChoiceParameter<'uniform' | 'poisson'>;
      /** seed of the Poisson gaps: the same seed sends at the same times on every run */ seed: IntegerParameter;
      /** how the load changes in the window, DURATION:TARGET each (the load goes in a line to TARGET): the rate in the open model (messages per second, per connection with ratePerConnection), the active connections in the closed loop; the window lasts their total */ stages: StagesParameter;
    },
    {
      /** median (p50) of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttP50Ms: MetricDefinition;
      /** p90 of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttP90Ms: MetricDefinition;
      /** p99 of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttP99Ms: MetricDefinition;
      /** p99.9 of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttP999Ms: MetricDefinition;
      /** maximum of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttMaxMs: MetricDefinition;
      /** mean of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttMeanMs: MetricDefinition;
      /** minimum of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttMinMs: MetricDefinition;
      /** standard deviation of `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (ms) */ rttStdevMs: MetricDefinition;
      /** samples in `rtt`: round trip per message: from when it was due (open model) or sent (closed loop) to its reply (count) */ rttSamples: MetricDefinition;
      /** median (p50) of `service`: from when each message actually went out to its reply (the same as rtt in the closed loop) (ms) */ serviceP50Ms: MetricDefinition;
      /** p99 of `service`: from when each message actually went out to its reply (the same as rtt in the closed loop) (ms) */ serviceP99Ms: MetricDefinition;
      /** maximum of `service`: from when each message actually went out to its reply (the same as rtt in the closed loop) (ms) */ serviceMaxMs: MetricDefinition;
      /** received (counter `received`) (count) */ received: MetricDefinition;
      /** replies received per second of the window (counter `received`, per second of the window) (msg/s) */ messagesPerSec: MetricDefinition;
      /** sent (counter `sent`) (count) */ sent: MetricDefinition;
      /** wrong-sized replies and connections that closed on their own (counter `errors`) (count) */ errors: MetricDefinition;
      /** lost (counter `connectionsLost`) (count) */ connectionsLost: MetricDefinition;
      /** messages still without a reply when the drain ended (counter `unansweredAtEnd`) (count) */ unansweredAtEnd: MetricDefinition;
      /** maximum of `unansweredAge`: how long each message counted unanswered had waited, from its due time, when the drain ended (not in rtt) (ms) */ unansweredAgeMaxMs: MetricDefinition;
      /** p99 of `sendLag`: how long after its due time each message went out (open model; about 1 ms is the timer clock) (ms) */ sendLagP99Ms: MetricDefinition;
      /** maximum of `sendLag`: how long after its due time each message went out (open model; about 1 ms is the timer clock) (ms) */ sendLagMaxMs: MetricDefinition;
      /** messages sent more than 2 ms after their due time (counter `sendsLate`) (count) */ sendsLate: MetricDefinition;
      /** messages that fell due in the window and never went out: the load generator could not keep up (counter `sendsMissed`) (count) */ sendsMissed: MetricDefinition;
      /** CPU time the server spent per msg, in µs (server CPU time in the window (CPU % x window) / received) (us) */ serverCpuUsPerMessage: MetricDefinition;
      /** CPU time the load-generating processes spent per msg, in µs, all of them added (client processes' CPU time in the window, added up / received) (us) */ clientCpuUsPerMessage: MetricDefinition;
      /** server peak RSS in the window minus its RSS when the first connection arrived, per connection, in KB (1000 bytes) (server peak RSS minus its RSS at the first connection, per connection, / 1000) (KB) */ serverRssPerConnectionKB: MetricDefinition;
      /** replies x payload size per second, one direction (the other carries the same) (MB/s) */ payloadMegabytesPerSec: MetricDefinition;
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
      /** ticks (counter `ticksSent`, server side) (count) */ ticksSent: MetricDefinition;
      /** sent (counter `messagesSent`, server side) (count) */ messagesSentByServer: MetricDefinition;
      /** conn (counter `connected`) (count) */ connected: MetricDefinition;
      /** fail (counter `connectFailed`) (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (counter `connectFailedEMFILE`) (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (counter `connectFailedEADDRNOTAVAIL`) (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (counter `connectFailedETIMEDOUT`) (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (counter `connectFailedECONNREFUSED`) (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (counter `connectFailedOther`) (count) */ connectFailedOther: MetricDefinition;
      /** recv (counter `received`) (count) */ received: MetricDefinition;
      /** ticks a kept connection never received (counter `missing`) (count) */ missing: MetricDefinition;
      /** out of order (counter `outOfOrder`) (count) */ outOfOrder: MetricDefinition;
      /** connections lost during the run (counter `connectionsLost`) (count) */ dropped: MetricDefinition;
      /** median (p50) of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayP50Ms: MetricDefinition;
      /** p90 of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayP90Ms: MetricDefinition;
      /** p99 of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayP99Ms: MetricDefinition;
      /** p99.9 of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayP999Ms: MetricDefinition;
      /** maximum of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayMaxMs: MetricDefinition;
      /** minimum of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayMinMs: MetricDefinition;
      /** standard deviation of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayStdevMs: MetricDefinition;
      /** samples in `delay`: one-way: the tick's due time on the server to its arrival (count) */ delaySamples: MetricDefinition;
      /** the seed's error count (failed to connect + connections lost + unreadable messages) (count) */ errors: MetricDefinition;
      /** mean of `delay`: one-way: the tick's due time on the server to its arrival (ms) */ delayMeanMs: MetricDefinition;
      /** p99 of the server's `tickLateness`: how late the server's timer fired for a tick (ms) */ serverTickLatenessP99Ms: MetricDefinition;
      /** messages received over all clients, per second of streaming (ticks x interval) (msg/s) */ messagesPerSec: MetricDefinition;
      /** bytes received / messages received (bytes) */ avgMessageBytes: MetricDefinition;
      /** mean CPU of the server (%) */ serverCpuPercent: MetricDefinition;
      /** highest memory (RSS) of the server (bytes) */ serverRssBytes: MetricDefinition;
      /** mean CPU of the client processes together (%) */ clientCpuPercent: MetricDefinition;
      /** highest memory (RSS) of the client processes together (bytes) */ clientRssBytes: MetricDefinition;
      /** peak RSS of every client process, added up, in MB (MB) */ clientRssMB: MetricDefinition;
      /** client peak RSS minus RSS after the first connection, per further connection (from 100 connections) (bytes) */ clientRssPerConnectionBytes: MetricDefinition;
      /** clientRssPerConnectionBytes / 1000 (KB) */ clientRssPerConnectionKB: MetricDefinition;
      /** server peak RSS in the window minus its RSS when the first connection arrived, per connected client (from 100 connections) (bytes) */ serverRssPerConnectionBytes: MetricDefinition;
      /** serverRssPerConnectionBytes / 1000 (KB) */ serverRssPerConnectionKB: MetricDefinition;
    }
  >;
  firehose: Scenario<
    {
      /** update messages per second (0 = as fast as backpressure allows) */ rate: IntegerParameter;
      /** largest frame payload; longer messages are sent as several frames */ fragmentSize: SizeParameter;
    },
    {
      /** server msgs (counter `messagesSent`, server side) (count) */ serverMessagesSent: MetricDefinition;
      /** server frames (counter `framesSent`, server side) (count) */ serverFramesSent: MetricDefinition;
      /** messages received in the window, per second (counter `received`, per second of the window) (msg/s) */ messagesPerSec: MetricDefinition;
      /** message bytes received in the window, per second (counter `rxBytes`, per second of the window) (bytes/s) */ bytesPerSec: MetricDefinition;
      /** the backlog read after the window closed (counter `receivedAfterWindow`) (count) */ rxMessagesAfterWindow: MetricDefinition;
      /** tx msgs (counter `sent`) (count) */ txMessages: MetricDefinition;
      /** closes the client did not ask for (counter `connectionsLost`) (count) */ closeEvents: MetricDefinition;
      /** the server's reply to unsubscribe never came (counter `drainTimedOut`) (count) */ drainTimedOut: MetricDefinition;
      /** message bytes received in the window (counter `rxBytes`, per second of the window) (MB/s) */ megabytesPerSec: MetricDefinition;
      /** messages received, the backlog after the window included (count) */ rxMessages: MetricDefinition;
      /** message bytes received, the backlog after the window included (bytes) */ rxBytes: MetricDefinition;
      /** tx bytes (counter `txBytes`) (bytes) */ txBytes: MetricDefinition;
      /** smallest message received (counter messageBytesMin, null when no message arrived) (bytes) */ messageBytesMin: MetricDefinition;
      /** rxBytes / rxMessages (bytes) */ messageBytesAvg: MetricDefinition;
      /** largest message received (counter messageBytesMax, null when no message arrived) (bytes) */ messageBytesMax: MetricDefinition;
      /** median (p50) of `messageBytes`: median message received (in the window) (bytes) */ messageBytesP50: MetricDefinition;
      /** WebSocket framing violations, read off the wire (count) */ receiveErrors: MetricDefinition;
      /** data frames / messages, read off the wire (ratio) */ framesPerMessageAvg: MetricDefinition;
      /** most data frames one message took, read off the wire (count) */ framesPerMessageMax: MetricDefinition;
      /** messages that came in one frame, read off the wire (count) */ fastPathMessages: MetricDefinition;
      /** messages assembled from several frames, read off the wire (count) */ assembledMessages: MetricDefinition;
      /** share of messages that came in one frame, read off the wire (%) */ fastPathPercent: MetricDefinition;
      /** exact sum of assembly times / assembled messages, read off the wire (us) */ assemblyAvgUs: MetricDefinition;
      /** p99 of the assembly histogram, read off the wire (us) */ assemblyP99Us: MetricDefinition;
      /** longest assembly, read off the wire (us) */ assemblyMaxUs: MetricDefinition;
      /** exact sum of assembly times, read off the wire (ms) */ assemblyTotalMs: MetricDefinition;
      /** complete data messages, read off the wire (count) */ wireMessages: MetricDefinition;
      /** payload bytes of data frames, read off the wire (bytes) */ wirePayloadBytes: MetricDefinition;
      /** data frames, read off the wire (count) */ wireDataFrames: MetricDefinition;
      /** control frames (ping, pong, close), read off the wire (count) */ wireControlFrames: MetricDefinition;
      /** bytes received, frame headers included, read off the wire (bytes) */ wireBytes: MetricDefinition;
      /** server bytes (counter `bytesSent`, server side) (bytes) */ serverBytesSent: MetricDefinition;
      /** messages the server stack refused to queue, as the stack counts them (count) */ stackDrops: MetricDefinition;
      /** mean CPU of the client processes together (%) */ clientCpuPercent: MetricDefinition;
      /** highest memory (RSS) of the client processes together (bytes) */ clientRssBytes: MetricDefinition;
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
      /** conn (counter `connected`) (count) */ connected: MetricDefinition;
      /** fail (counter `connectFailed`) (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (counter `connectFailedEMFILE`) (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (counter `connectFailedEADDRNOTAVAIL`) (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (counter `connectFailedETIMEDOUT`) (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (counter `connectFailedECONNREFUSED`) (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (counter `connectFailedOther`) (count) */ connectFailedOther: MetricDefinition;
      /** connections lost during the run (counter `connectionsLost`) (count) */ dropped: MetricDefinition;
      /** pings without a pong when the drain ended (counter `unanswered`) (count) */ unanswered: MetricDefinition;
      /** pongs that were not the ping sent, or came unasked (counter `badReplies`) (count) */ badReplies: MetricDefinition;
      /** pings (counter `pingsSent`) (count) */ pingsSent: MetricDefinition;
      /** pongs (counter `pongsReceived`) (count) */ pongsReceived: MetricDefinition;
      /** median (p50) of `rtt`: ping round trip, from when the ping was due (ms) */ rttP50Ms: MetricDefinition;
      /** p90 of `rtt`: ping round trip, from when the ping was due (ms) */ rttP90Ms: MetricDefinition;
      /** p99 of `rtt`: ping round trip, from when the ping was due (ms) */ rttP99Ms: MetricDefinition;
      /** p99.9 of `rtt`: ping round trip, from when the ping was due (ms) */ rttP999Ms: MetricDefinition;
      /** maximum of `rtt`: ping round trip, from when the ping was due (ms) */ rttMaxMs: MetricDefinition;
      /** mean of `rtt`: ping round trip, from when the ping was due (ms) */ rttMeanMs: MetricDefinition;
      /** minimum of `rtt`: ping round trip, from when the ping was due (ms) */ rttMinMs: MetricDefinition;
      /** standard deviation of `rtt`: ping round trip, from when the ping was due (ms) */ rttStdevMs: MetricDefinition;
      /** samples in `rtt`: ping round trip, from when the ping was due (count) */ rttSamples: MetricDefinition;
      /** connections the server held when the window opened (counter `openAtWindowStart`, server side) (count) */ serverOpenAtWindowStart: MetricDefinition;
      /** server peak RSS in the window minus its RSS when the first connection arrived, per connected client; below resolution when smaller than the window's own RSS swing per connection (bytes) */ serverRssPerConnectionBytes: MetricDefinition;
      /** serverRssPerConnectionBytes / 1000 (KB) */ serverRssPerConnectionKB: MetricDefinition;
      /** server CPU mean (% of one core) per 1000 connected clients, pings included (%) */ serverCpuPer1000Connections: MetricDefinition;
      /** mean CPU of the server (%) */ serverCpuPercent: MetricDefinition;
      /** highest memory (RSS) of the server (bytes) */ serverRssBytes: MetricDefinition;
      /** mean CPU of the client processes together (%) */ clientCpuPercent: MetricDefinition;
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
      /** publications sent by the publishers (counter `published`) (count) */ published: MetricDefinition;
      /** what the subscribers should get: each topic's publications x its subscribers, from the schedule (counter `expected`) (count) */ expected: MetricDefinition;
      /** distinct publications that reached a subscriber (duplicates excluded) (counter `delivered`) (count) */ delivered: MetricDefinition;
      /** publications a subscriber should have had and never got (counter `missing`) (count) */ missing: MetricDefinition;
      /** publications a subscriber got more than once (counter `duplicates`) (count) */ duplicates: MetricDefinition;
      /** publications that arrived after a later one of the same publisher on the same topic (counter `outOfOrder`) (count) */ outOfOrder: MetricDefinition;
      /** messages on a topic they were not published to, or not a publication (counter `misrouted`) (count) */ misrouted: MetricDefinition;
      /** subscribers that got fewer publications than expected (counter `subscribersShort`) (count) */ subscribersShort: MetricDefinition;
      /** conn lost (counter `connectionsLost`) (count) */ connectionsLost: MetricDefinition;
      /** median (p50) of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP50Ms: MetricDefinition;
      /** p90 of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP90Ms: MetricDefinition;
      /** p99 of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP99Ms: MetricDefinition;
      /** p99.9 of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryP999Ms: MetricDefinition;
      /** maximum of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMaxMs: MetricDefinition;
      /** mean of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMeanMs: MetricDefinition;
      /** minimum of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryMinMs: MetricDefinition;
      /** standard deviation of `delivery`: from the publication's intended send time to its arrival at a subscriber (ms) */ deliveryStdevMs: MetricDefinition;
      /** samples in `delivery`: from the publication's intended send time to its arrival at a subscriber (count) */ deliverySamples: MetricDefinition;
      /** median (p50) of `spread`: fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadP50Ms: MetricDefinition;
      /** p99 of `spread`: fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadP99Ms: MetricDefinition;
      /** maximum of `spread`: fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (ms) */ spreadMaxMs: MetricDefinition;
      /** samples in `spread`: fairness: the first to the last delivery of one publication among a client process's subscribers of its topic (count) */ spreadSamples: MetricDefinition;
      /** delivered / expected (ratio) */ deliveredShare: MetricDefinition;
      /** deliveries to all subscribers per second of publishing (publications / rate) (msg/s) */ deliveriesPerSec: MetricDefinition;
      /** mean CPU of the server (%) */ serverCpuPercent: MetricDefinition;
      /** highest memory (RSS) of the server (bytes) */ serverRssBytes: MetricDefinition;
      /** mean CPU of the client processes together (%) */ clientCpuPercent: MetricDefinition;
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
      /** p90 of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP90Ms: MetricDefinition;
      /** p99 of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP99Ms: MetricDefinition;
      /** p99.9 of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP999Ms: MetricDefinition;
      /** minimum of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMinMs: MetricDefinition;
      /** standard deviation of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsStdevMs: MetricDefinition;
      /** samples in `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (count) */ wsSamples: MetricDefinition;
      /** p90 of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP90Ms: MetricDefinition;
      /** p99 of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP99Ms: MetricDefinition;
      /** p99.9 of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP999Ms: MetricDefinition;
      /** minimum of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMinMs: MetricDefinition;
      /** standard deviation of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restStdevMs: MetricDefinition;
      /** batches (continuous) or orders (sustained) placed while the subscriber watched (counter `batchesExpectedWs`) (count) */ wsExpectedSamples: MetricDefinition;
      /** batches (continuous) or orders (sustained) placed while the poller watched (counter `batchesExpectedRest`) (count) */ restExpectedSamples: MetricDefinition;
      /** updates seen before their creation time: the one-clock assumption broke (counter `negativeLatencies`) (count) */ negativeLatencies: MetricDefinition;
      /** HTTP reqs (counter `restRequests`) (count) */ restRequests: MetricDefinition;
      /** empty (counter `restEmptyPolls`) (count) */ restEmptyPolls: MetricDefinition;
      /** REST updates (counter `restUpdates`) (count) */ restUpdates: MetricDefinition;
      /** polls late (counter `restPollsBehindSchedule`) (count) */ restPollsBehindSchedule: MetricDefinition;
      /** WS updates (counter `wsUpdates`) (count) */ wsUpdates: MetricDefinition;
      /** polls served (counter `pollsServed`, server side) (count) */ serverPollsServed: MetricDefinition;
      /** updates created (counter `updatesCreated`, server side) (count) */ serverUpdatesCreated: MetricDefinition;
      /** orders placed (counter `placeRequests`) (count) */ placeRequests: MetricDefinition;
      /** errors (counter `errors`) (count) */ errors: MetricDefinition;
      /** lost (counter `connectionsLost`) (count) */ connectionsLost: MetricDefinition;
      /** mean of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMeanMs: MetricDefinition;
      /** median (p50) of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsP50Ms: MetricDefinition;
      /** maximum of `ws`: subscriber: from the creation of a batch on the server until every update of it was seen (ms) */ wsMaxMs: MetricDefinition;
      /** mean of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMeanMs: MetricDefinition;
      /** median (p50) of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restP50Ms: MetricDefinition;
      /** maximum of `rest`: poller: from the creation of a batch on the server until every update of it was seen (ms) */ restMaxMs: MetricDefinition;
      /** samples in `rest`: poller: from the creation of a batch on the server until every update of it was seen (count) */ restSamples: MetricDefinition;
      /** REST mean - WS mean (ms) */ improvementMs: MetricDefinition;
      /** (REST mean - WS mean) / REST mean x 100 (%) */ improvementPercent: MetricDefinition;
      /** time the poller ran (ms) */ restPollActiveMs: MetricDefinition;
      /** polls the fixed-rate schedule asked for while the poller ran (one at its start, one per interval) (count) */ restPollsScheduled: MetricDefinition;
      /** REST wire up (counter `restWireBytesUp`) (bytes) */ restWireBytesUp: MetricDefinition;
      /** REST wire down (counter `restWireBytesDown`) (bytes) */ restWireBytesDown: MetricDefinition;
      /** (restWireBytesUp) / restUpdates, null when no update arrived (bytes) */ restWireBytesUpPerUpdate: MetricDefinition;
      /** (restWireBytesDown) / restUpdates, null when no update arrived (bytes) */ restWireBytesDownPerUpdate: MetricDefinition;
      /** poll bytes both ways, headers included ((restWireBytesUp + restWireBytesDown) / restUpdates, null when no update arrived) (bytes) */ restWireBytesPerUpdate: MetricDefinition;
      /** (restBodyBytesDown) / restUpdates, null when no update arrived (bytes) */ restBodyBytesDownPerUpdate: MetricDefinition;
      /** (wsPayloadBytesDown) / wsUpdates, null when no update arrived (bytes) */ wsPayloadBytesDownPerUpdate: MetricDefinition;
      /** (wsPayloadBytesUp) / wsUpdates, null when no update arrived (bytes) */ wsPayloadBytesUpPerUpdate: MetricDefinition;
      /** every byte received on the WebSocket after the upgrade (wsWireBytesDown / wsUpdates, null where the client stack hands over no raw bytes) (bytes) */ wsWireBytesDownPerUpdate: MetricDefinition;
      /** server CPU time / wall time during the websocket phase (%) */ serverCpuPercentWebsocket: MetricDefinition;
      /** server CPU time / wall time during the rest phase (%) */ serverCpuPercentRest: MetricDefinition;
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
      /** clients connected before the window opened (counter `connected`) (count) */ connected: MetricDefinition;
      /** fail (counter `connectFailed`) (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (counter `connectFailedEMFILE`) (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (counter `connectFailedEADDRNOTAVAIL`) (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (counter `connectFailedETIMEDOUT`) (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (counter `connectFailedECONNREFUSED`) (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (counter `connectFailedOther`) (count) */ connectFailedOther: MetricDefinition;
      /** connections dropped under the clients (by the kill, as a rule: one per client) (counter `connectionsLost`) (count) */ lost: MetricDefinition;
      /** connections dropped other than by the kill: before it, or after their client was back (the server closed them or went away) (counter `lostUnplanned`) (count) */ lostUnplanned: MetricDefinition;
      /** clients connected again after a drop (counter `back`) (count) */ back: MetricDefinition;
      /** clients still without a connection when the window ended (counter `neverBack`) (count) */ neverBack: MetricDefinition;
      /** median (p50) of `timeToBack`: from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP50Ms: MetricDefinition;
      /** p90 of `timeToBack`: from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP90Ms: MetricDefinition;
      /** p99 of `timeToBack`: from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackP99Ms: MetricDefinition;
      /** maximum of `timeToBack`: from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (ms) */ timeToBackMaxMs: MetricDefinition;
      /** samples in `timeToBack`: from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back) (count) */ timeToBackSamples: MetricDefinition;
      /** reconnect attempts, the successful ones included (counter `attempts`) (count) */ attempts: MetricDefinition;
      /** reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down) (counter `attemptsFailed`) (count) */ attemptsFailed: MetricDefinition;
      /** failed reconnect attempts: refused (counter `attemptsRefused`) (count) */ attemptsRefused: MetricDefinition;
      /** failed reconnect attempts: reset (counter `attemptsReset`) (count) */ attemptsReset: MetricDefinition;
      /** failed reconnect attempts: timeout (counter `attemptsTimeout`) (count) */ attemptsTimeout: MetricDefinition;
      /** failed reconnect attempts: tls (counter `attemptsTls`) (count) */ attemptsTls: MetricDefinition;
      /** failed reconnect attempts: httpStatus (counter `attemptsHttpStatus`) (count) */ attemptsHttpStatus: MetricDefinition;
      /** failed reconnect attempts: other (counter `attemptsOther`) (count) */ attemptsOther: MetricDefinition;
      /** attempts under way when the window closed (neither open nor failed) (counter `attemptsAbandoned`) (count) */ attemptsAbandoned: MetricDefinition;
      /** maximum of `serverDown`: from the kill until wsbench first saw the new server serving (its own server: the ready signal; a command: its first handshake answered) (ms) */ serverDownMs: MetricDefinition;
      /** highest CPU of the server: the highest of the server's 250 ms CPU samples in the window (its old and new process alike) (%) */ serverCpuPeak: MetricDefinition;
      /** highest memory (RSS) of the server: the server's largest RSS sample in the window (bytes) */ serverRssPeak: MetricDefinition;
      /** mean CPU of the server (%) */ serverCpuPercent: MetricDefinition;
      /** mean CPU of the client processes together (%) */ clientCpuPercent: MetricDefinition;
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
      /** srv sent slow (counter `sentSlow`, server side) (count) */ serverSentSlow: MetricDefinition;
      /** messages to slow clients the stack refused to queue (counter `droppedSlow`, server side) (count) */ serverDroppedSlow: MetricDefinition;
      /** messages to healthy clients the stack refused to queue (counter `droppedHealthy`, server side) (count) */ serverDroppedHealthy: MetricDefinition;
      /** conn (counter `connected`) (count) */ connected: MetricDefinition;
      /** slow (counter `slowConnected`) (count) */ slowConnected: MetricDefinition;
      /** fail (counter `connectFailed`) (count) */ connectFailed: MetricDefinition;
      /** fail EMFILE (counter `connectFailedEMFILE`) (count) */ connectFailedEMFILE: MetricDefinition;
      /** fail EADDRNOTAVAIL (counter `connectFailedEADDRNOTAVAIL`) (count) */ connectFailedEADDRNOTAVAIL: MetricDefinition;
      /** fail ETIMEDOUT (counter `connectFailedETIMEDOUT`) (count) */ connectFailedETIMEDOUT: MetricDefinition;
      /** fail ECONNREFUSED (counter `connectFailedECONNREFUSED`) (count) */ connectFailedECONNREFUSED: MetricDefinition;
      /** fail other (counter `connectFailedOther`) (count) */ connectFailedOther: MetricDefinition;
      /** median (p50) of `delay`: healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayP50Ms: MetricDefinition;
      /** p99 of `delay`: healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayP99Ms: MetricDefinition;
      /** maximum of `delay`: healthy clients, one-way: the message's due time on the server to its arrival (ms) */ delayMaxMs: MetricDefinition;
      /** median (p50) of `slowDelay`: slow clients, one-way, their drain at the end included (ms) */ slowDelayP50Ms: MetricDefinition;
      /** p99 of `slowDelay`: slow clients, one-way, their drain at the end included (ms) */ slowDelayP99Ms: MetricDefinition;
      /** maximum of `slowDelay`: slow clients, one-way, their drain at the end included (ms) */ slowDelayMaxMs: MetricDefinition;
      /** recv (counter `healthyReceived`) (count) */ healthyReceived: MetricDefinition;
      /** messages a healthy client never received (counter `healthyMissing`) (count) */ healthyMissing: MetricDefinition;
      /** messages missing from the middle of a healthy client's sequence (dropped by the server) (counter `healthySkipped`) (count) */ healthySkipped: MetricDefinition;
      /** healthy clients whose connection closed during the stream (counter `healthyClosed`) (count) */ healthyClosed: MetricDefinition;
      /** slow recv (counter `slowReceived`) (count) */ slowReceived: MetricDefinition;
      /** messages a slow client never received, its drain at the end included (counter `slowMissing`) (count) */ slowMissing: MetricDefinition;
      /** messages missing from the middle of a slow client's sequence (dropped by the server) (counter `slowSkipped`) (count) */ slowSkipped: MetricDefinition;
      /** slow clients whose connection the server closed during the stream (counter `slowClosed`) (count) */ slowClosed: MetricDefinition;
      /** median (p50) of `slowClosedByServerAfter`: from the stream's start to a slow client's connection closing (ms) */ slowClosedByServerAfterP50Ms: MetricDefinition;
      /** maximum of `slowClosedByServerAfter`: from the stream's start to a slow client's connection closing (ms) */ slowClosedByServerAfterMaxMs: MetricDefinition;
      /** growth of the server's queue for slow clients, as the stream reports it (over the window: its level at the stream's end, per second) (counter `serverSlowQueuedBytes`, per second of the window) (bytes/s) */ slowQueueGrowth: MetricDefinition;
      /** peak of the bytes the server had queued for its slow connections (bufferedAmountBytes of each, read every 100 ms), in MB (MB) */ serverSlowQueuedPeakMB: MetricDefinition;
      /** the same for the healthy connections (MB) */ serverHealthyQueuedPeakMB: MetricDefinition;
      /** the server's peak RSS in the window (from /proc) minus its RSS when the stream started, in MB (MB) */ serverRssGrowthMB: MetricDefinition;
      /** the server's peak RSS in the window, in MB (MB) */ serverRssMB: MetricDefinition;
    }
  >;
  'ticker-orders': Scenario<
    {
      /** time between two price ticks */ tickInterval: DurationParameter;
      /** trading clients (over all client processes) */ connections: IntegerParameter;
      /** stock symbols priced on every tick */ symbols: IntegerParameter;
    },
    {
      /** median (p50) of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttP50Ms: MetricDefinition;
      /** p90 of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttP90Ms: MetricDefinition;
      /** p99 of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttP99Ms: MetricDefinition;
      /** p99.9 of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttP999Ms: MetricDefinition;
      /** samples in `orderRtt`: order round trip: from sending the order to its acknowledgement (count) */ orderRttSamples: MetricDefinition;
      /** median (p50) of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP50Ms: MetricDefinition;
      /** p90 of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP90Ms: MetricDefinition;
      /** p99.9 of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP999Ms: MetricDefinition;
      /** maximum of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMaxMs: MetricDefinition;
      /** mean of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMeanMs: MetricDefinition;
      /** minimum of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckMinMs: MetricDefinition;
      /** standard deviation of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckStdevMs: MetricDefinition;
      /** samples in `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (count) */ tickToAckSamples: MetricDefinition;
      /** median (p50) of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP50Ms: MetricDefinition;
      /** p90 of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP90Ms: MetricDefinition;
      /** p99 of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP99Ms: MetricDefinition;
      /** p99.9 of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayP999Ms: MetricDefinition;
      /** maximum of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMaxMs: MetricDefinition;
      /** mean of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMeanMs: MetricDefinition;
      /** minimum of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayMinMs: MetricDefinition;
      /** standard deviation of `tickDelay`: from the tick's intended broadcast time to its arrival at a client (ms) */ tickDelayStdevMs: MetricDefinition;
      /** samples in `tickDelay`: from the tick's intended broadcast time to its arrival at a client (count) */ tickDelaySamples: MetricDefinition;
      /** orders (counter `ordersSent`) (count) */ ordersSent: MetricDefinition;
      /** acked (counter `ordersAcked`) (count) */ ordersAcked: MetricDefinition;
      /** orders acknowledged per second of the window (counter `ordersAcked`, per second of the window) (msg/s) */ ordersPerSec: MetricDefinition;
      /** orders still without an acknowledgement when the drain ended (counter `ordersUnanswered`) (count) */ ordersUnanswered: MetricDefinition;
      /** ticks (counter `ticksReceived`) (count) */ ticksReceived: MetricDefinition;
      /** ticks a client never got (sequence gaps) (counter `ticksMissed`) (count) */ ticksMissed: MetricDefinition;
      /** dup ticks (counter `ticksDuplicated`) (count) */ ticksDuplicated: MetricDefinition;
      /** lost (counter `connectionsLost`) (count) */ connectionsLost: MetricDefinition;
      /** broadcast (counter `ticksBroadcast`, server side) (count) */ ticksBroadcast: MetricDefinition;
      /** server orders (counter `ordersReceived`, server side) (count) */ ordersReceivedByServer: MetricDefinition;
      /** mean of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttMeanMs: MetricDefinition;
      /** maximum of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttMaxMs: MetricDefinition;
      /** minimum of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttMinMs: MetricDefinition;
      /** standard deviation of `orderRtt`: order round trip: from sending the order to its acknowledgement (ms) */ orderRttStdevMs: MetricDefinition;
      /** p99 of `tickToAck`: from the tick's intended broadcast time to the acknowledgement of its order (ms) */ tickToAckP99Ms: MetricDefinition;
      /** ticks one connection should have seen in the window at the nominal rate: window / tickInterval, rounded down (count) */ ticksNominalPerConnection: MetricDefinition;
      /** p99 of the server's `tickTimerLag`: how late the server's tick timer fired (ms) */ serverTickTimerLagP99Ms: MetricDefinition;
      /** maximum of the server's `tickTimerLag`: how late the server's tick timer fired (ms) */ serverTickTimerLagMaxMs: MetricDefinition;
      /** connections that closed on their own plus orders the server could not parse (count) */ errors: MetricDefinition;
    }
  >;
}

/** The name of a built-in scenario: run('echo') or `wsbench run echo`. */
export type BuiltInScenarioName = keyof BuiltInScenarios;
