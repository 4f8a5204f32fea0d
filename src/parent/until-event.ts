import type { EventEmitter } from 'node:events';

/**
 * Resolves when `emitter` emits `event`, or after `ms`, whichever comes first: a
 * wait with a deadline for what a process leaves behind after its exit (the rest of
 * its IPC channel, the last lines on its stderr), which the exit can overtake.
 */
export function untilEvent(emitter: EventEmitter, event: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      emitter.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.once(event, done);
  });
}
