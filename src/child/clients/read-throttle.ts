/**
 * A client that reads slowly, or not at all, the way one on a bad network
 * does: its Node socket is paused, so at most the stream's high-water mark
 * (16 KiB, plus the read in progress) waits in JavaScript and the rest stays
 * in the kernel's buffers; once they are full, TCP flow control stops the
 * server's writes and the bytes queue up in the server. At a set rate, a timer
 * takes that many bytes a second off the paused socket, which hands them to
 * the WebSocket parser as ordinary data. Nothing is read and then dropped.
 */
import type { Socket } from 'node:net';

/** How often a throttled socket is read: small slices keep the rate even. */
const SLICE_MS = 20;

/** The throttleReading() of a connection whose socket this is. */
export function readThrottle(socket: Socket): (bytesPerSec: number | null) => void {
  let timer: NodeJS.Timeout | null = null;
  let throttled = false;
  // A WebSocket parser resumes its socket when it has drained: a throttled one stays paused.
  const keepPaused = (): void => {
    if (throttled) socket.pause();
  };
  socket.on('resume', keepPaused);
  return (bytesPerSec) => {
    if (timer) clearInterval(timer);
    timer = null;
    throttled = bytesPerSec !== null;
    if (bytesPerSec === null) {
      socket.resume();
      return;
    }
    socket.pause();
    if (bytesPerSec <= 0) return;
    let budget = 0;
    let lastMs = performance.now();
    timer = setInterval(() => {
      const nowMs = performance.now();
      // At most one second's worth is banked: a stalled timer must not turn into a burst.
      budget = Math.min(bytesPerSec, budget + (bytesPerSec * (nowMs - lastMs)) / 1000);
      lastMs = nowMs;
      while (budget >= 1 && socket.readableLength > 0) {
        // A paused stream's read() emits 'data' with what it returns: the parser gets exactly these bytes.
        const chunk = socket.read(Math.min(Math.floor(budget), socket.readableLength)) as Buffer | null;
        if (chunk === null) break;
        budget -= chunk.length;
      }
    }, SLICE_MS);
    timer.unref();
    socket.once('close', () => timer && clearInterval(timer));
  };
}
