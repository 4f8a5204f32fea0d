/**
 * Loaded into wsbench by bench/soak-memory.ts (`node --expose-gc --import
 * dist/bench/soak-heap-probe.js bin/wsbench.js ...`) to tell a leak from a heap
 * still growing to its working size: every WSBENCH_HEAP_PROBE_MS (default 10 s)
 * it forces a full garbage collection and appends process.memoryUsage() to the
 * JSON-lines file WSBENCH_HEAP_PROBE names. What survives a full collection is
 * what the process keeps; RSS beyond it is the heap's slack and native memory.
 *
 * The forked server and client processes inherit the flags; only the process
 * running bin/wsbench.js (the orchestrator) is probed.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.WSBENCH_HEAP_PROBE;
const everyMs = Number(process.env.WSBENCH_HEAP_PROBE_MS ?? 10_000);
const collect = (globalThis as { gc?: () => void }).gc;

if (file && collect && /wsbench\.js$/.test(process.argv[1] ?? '')) {
  const startedMs = Date.now();
  const timer = setInterval(() => {
    collect();
    const usage = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ tS: Math.round((Date.now() - startedMs) / 1000), ...usage })}\n`);
  }, everyMs);
  timer.unref();
}
