/**
 * The DevTools protocol over Chromium's --remote-debugging-pipe (it reads
 * commands on fd 3 and writes on fd 4, each message JSON ended by a NUL). The
 * browser client sends a handful of commands (open a page, the version, close)
 * and hears crash events: nothing measured travels here.
 */
import type { Readable, Writable } from 'node:stream';

/** How long a closed pipe waits for the browser's exit to say why, before it says only that it closed. */
const PIPE_CLOSE_GRACE_MS = 2000;

interface Reply {
  id: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

export class CdpPipe {
  private nextId = 0;
  private buffered = '';
  private readonly pending = new Map<
    number,
    { resolve(result: Record<string, unknown>): void; reject(error: Error): void }
  >();
  private closedReason: string | null = null;
  onEvent: ((event: CdpEvent) => void) | null = null;

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    toBrowser.on('error', () => undefined); // the browser gone: its exit says why
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => this.read(chunk));
    // The pipe closes as the browser exits, and its exit (code, last line: the reason a user can act on) is
    // handled a moment later on a busy machine: that reason wins if it comes within the grace, this one otherwise.
    fromBrowser.on('close', () => {
      setTimeout(() => this.close('the browser closed its DevTools pipe'), PIPE_CLOSE_GRACE_MS).unref();
    });
    fromBrowser.on('error', () => undefined);
  }

  /** Sends a command; rejects with the browser's error, when the pipe closes, or after `timeoutMs`. */
  send(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    if (this.closedReason !== null) return Promise.reject(new Error(this.closedReason));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the browser did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.toBrowser.write(`${JSON.stringify({ id, method, params })}\0`);
    });
  }

  /** Every command still waiting fails with `reason`, and so does every later one. */
  close(reason: string): void {
    this.closedReason ??= reason;
    for (const { reject } of this.pending.values()) reject(new Error(this.closedReason));
    this.pending.clear();
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    for (let end = this.buffered.indexOf('\0'); end >= 0; end = this.buffered.indexOf('\0')) {
      const text = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      let message: Reply & Partial<CdpEvent>;
      try {
        message = JSON.parse(text) as Reply & Partial<CdpEvent>;
      } catch {
        continue;
      }
      if (typeof message.method === 'string') {
        this.onEvent?.({ method: message.method, params: message.params ?? {} });
        continue;
      }
      const waiter = this.pending.get(message.id);
      if (!waiter) continue;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
    }
  }
}
