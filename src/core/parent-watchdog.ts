/**
 * A child dies with wsbench even when its own event loop is stuck: a worker
 * thread polls the parent pid and SIGKILLs this process once wsbench is gone
 * (the child is then re-parented). The IPC 'disconnect' event alone needs a
 * free event loop, which a child in a busy loop never has.
 */
import { Worker } from 'node:worker_threads';

const POLL_MS = 250;

const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL');
}, ${POLL_MS});
`;

export function watchParent(): void {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { parent: process.ppid, self: process.pid } });
  // It must never be the reason a child stays alive.
  worker.unref();
}
