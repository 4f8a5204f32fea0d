/**
 * Entry of the server child: loads one server adapter and the scenario's
 * server half, listens on port 0 (or joins the cell's first server process on
 * its port), says where, and measures its own cost.
 */
import { loadServerAdapter } from './stacks.js';
import type { ServerLogic } from '../shared/types/scenario-types.js';
import { monotonicUs } from '../shared/measure/clock.js';
import { hostServerLogic } from './hosted-server-logic.js';
import { exitWithParent, sendToParent, type ServerStartMessage, type ToChild } from './ipc.js';
import { MetricsRegistry } from '../shared/measure/metrics.js';
import { EventLoopSampler } from './resources.js';
import { importScenario } from './scenario-loader.js';

exitWithParent();

const metrics = new MetricsRegistry();
const sampler = new EventLoopSampler();
let logic: ServerLogic = {};
let stackDrops: () => number = () => 0;
let windowStartUs = 0;

process.on('message', (message: ToChild) => {
  if (message.type === 'start') void start(message as ServerStartMessage);
  else if (message.type === 'go') {
    windowStartUs = monotonicUs();
    sampler.start();
    logic.onMeasureStart?.();
  } else if (message.type === 'sibling') {
    logic.onSiblingMessage?.(message.data);
  } else if (message.type === 'stop') {
    logic.onMeasureEnd?.();
    const loop = sampler.stop();
    void sendToParent({
      type: 'report',
      report: {
        histograms: metrics.encodeAll(),
        counters: metrics.counterValues(),
        eventLoopUtilization: loop.utilization,
        timerLatenessMs: loop.timerLatenessMs,
        windowMs: (monotonicUs() - windowStartUs) / 1000,
        notes: [],
      },
      stackDrops: stackDrops(),
    });
  }
});

async function start(message: ServerStartMessage): Promise<void> {
  try {
    const adapter = await loadServerAdapter(message.adapter);
    const availability = await adapter.probe();
    if (!availability.available) throw new Error(availability.reason);
    const scenario = await importScenario(message.scenario.url, message.scenario.name);
    // The plan skips built-in servers for a scenario without a server half; this child never starts for one.
    if (!scenario.server) throw new Error(`${scenario.name} has no server half`);
    const hosted = hostServerLogic(scenario.server.bind(scenario), {
      params: message.params,
      metrics,
      processIndex: message.processIndex,
      processCount: message.processCount,
      tellSiblings: (data) => {
        if (message.processCount > 1) void sendToParent({ type: 'sibling', data });
      },
    });
    logic = hosted.logic;
    const sendQueueLimit = scenario.sendQueueLimit?.(message.params);
    const running = await adapter.start({
      host: message.host,
      handlers: hosted.handlers,
      deflate: message.params.deflate === 'on',
      ...(sendQueueLimit ? { sendQueueLimit } : {}),
      ...(message.processCount > 1 ? { sharePort: true } : {}),
      ...(message.port !== undefined ? { port: message.port } : {}),
      ...(message.tls ? { tls: message.tls } : {}),
    });
    hosted.listening(running);
    stackDrops = running.stackDrops;
    await sendToParent({ type: 'ready', url: running.url, httpUrl: running.httpUrl });
  } catch (error) {
    await sendToParent({ type: 'failed', reason: firstLine(error) });
    process.exit(1);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
