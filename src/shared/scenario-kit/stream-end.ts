/**
 * The end of a streamed window on the client side: every receiver has had all
 * it will get, the last message's due time plus a drain has passed, or the
 * window closed, whichever comes first.
 */
export interface StreamEnd {
  /** Resolves at the end (never rejects). */
  finished: Promise<void>;
  /** Ends the wait now: a receiver's completion made every receiver done. */
  wake(): void;
}

/** Waits at most `deadlineMs` from now; `allDone` is asked once at the start, for receivers done before the wait began. */
export function streamEnd(signal: AbortSignal, deadlineMs: number, allDone: () => boolean): StreamEnd {
  let wake: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    const deadline = setTimeout(done, deadlineMs);
    function done(): void {
      clearTimeout(deadline);
      signal.removeEventListener('abort', done);
      resolve();
    }
    wake = done;
    signal.addEventListener('abort', done, { once: true });
    if (allDone()) done();
  });
  return { finished, wake };
}
