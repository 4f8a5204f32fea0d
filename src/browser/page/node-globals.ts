/**
 * The few Node globals scenario files and the scenario kit use, for a page:
 * imported first by the page's entry, before any scenario code loads. Each
 * keeps Node's meaning for what it offers (Buffer.byteLength is the UTF-8
 * length, timers answer unref()) and offers nothing it could not honour: a
 * page cannot read its process's memory or CPU, so `process` has no
 * memoryUsage or cpuUsage, and code that reads them says so when it runs.
 * Node's modules (node:fs, ...) are stand-ins that throw when called: see
 * page-imports.ts on the host.
 */

const g = globalThis as unknown as Record<string, unknown>;

// ---------------------------------------------------------------- process

g.process = {
  // A child that runs scenario code (check-declarations.ts leaves the schema checks to the orchestrator).
  env: { WSBENCH_ROLE: 'browser page' },
  platform: 'browser',
  versions: {},
  nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
};

// ---------------------------------------------------------------- Buffer

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes `text` takes in UTF-8, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Bytes whose toString() is their UTF-8 text, as a Node Buffer's is. */
class PageBuffer extends Uint8Array {
  override toString(): string {
    return decoder.decode(this);
  }
}

g.Buffer = {
  byteLength: (value: string | ArrayBufferView | ArrayBuffer): number =>
    typeof value === 'string' ? utf8Length(value) : value.byteLength,
  isBuffer: (value: unknown): boolean => value instanceof PageBuffer,
  from(value: string | ArrayBuffer | ArrayLike<number>, offset?: number, length?: number): PageBuffer {
    if (typeof value === 'string') {
      const bytes = encoder.encode(value);
      return new PageBuffer(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    if (value instanceof ArrayBuffer)
      return new PageBuffer(value, offset ?? 0, length ?? value.byteLength - (offset ?? 0));
    return PageBuffer.from(value as ArrayLike<number>) as PageBuffer;
  },
  alloc: (size: number): PageBuffer => new PageBuffer(size),
};

// ---------------------------------------------------------------- timers

/** A timer as Node returns it: unref() and ref() change nothing on a page, which has no process to keep alive. */
class PageTimer {
  constructor(readonly id: number) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

type TimerFunction = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => number;
type ClearFunction = (id?: number) => void;
const idOf = (timer: unknown): number | undefined =>
  timer instanceof PageTimer ? timer.id : (timer as number | undefined);

for (const [set, clear] of [
  ['setTimeout', 'clearTimeout'],
  ['setInterval', 'clearInterval'],
] as const) {
  const nativeSet = (g[set] as TimerFunction).bind(globalThis);
  const nativeClear = (g[clear] as ClearFunction).bind(globalThis);
  g[set] = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    new PageTimer(nativeSet(fn, ms, ...args));
  g[clear] = (timer?: unknown) => nativeClear(idOf(timer));
}

// setImmediate: a message to itself runs after pending I/O events, unclamped (nested timeouts wait 4 ms).
interface Port {
  onmessage: (() => void) | null;
  postMessage(data: unknown): void;
}
const channel = new (g.MessageChannel as new () => { port1: Port; port2: Port })();
const immediates: Array<{ run: () => void; cancelled: boolean }> = [];
channel.port1.onmessage = () => {
  const next = immediates.shift();
  if (next && !next.cancelled) next.run();
};
g.setImmediate = (fn: (...args: unknown[]) => void, ...args: unknown[]) => {
  const entry = { run: () => fn(...args), cancelled: false, ref: () => entry, unref: () => entry, hasRef: () => true };
  immediates.push(entry);
  channel.port2.postMessage(0);
  return entry;
};
g.clearImmediate = (entry?: { cancelled: boolean }) => {
  if (entry) entry.cancelled = true;
};

export {};
