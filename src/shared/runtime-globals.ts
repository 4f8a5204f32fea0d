/**
 * The few Bun and Deno APIs the bun and deno adapters use, typed here (the
 * project has no Bun or Deno type packages). Only reached inside a Bun or Deno
 * child: in Node these globals do not exist, and the adapters load there for
 * probe() without touching them.
 */

/** WHATWG WebSocket as both runtimes ship it (Bun takes an options object as its second argument). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly extensions: string;
  send(data: string | Uint8Array): void;
  close(code?: number): void;
  addEventListener(type: string, listener: (event: { data?: unknown; code?: number; message?: string }) => void): void;
}

export type WebSocketConstructor = new (url: string, options?: unknown) => WebSocketLike;

export interface BunServerWebSocket<T> {
  data: T;
  send(data: string | Uint8Array, compress?: boolean): number;
  getBufferedAmount(): number;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
  close(code?: number): void;
}

interface BunServer {
  readonly port: number;
  upgrade(request: Request, options: { data: unknown }): boolean;
  publish(topic: string, data: string | Uint8Array, compress?: boolean): number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunApi {
  version: string;
  serve(options: Record<string, unknown>): BunServer;
}

interface DenoHttpServer {
  readonly addr: { port: number };
  shutdown(): Promise<void>;
}

interface DenoApi {
  version: { deno: string };
  serve(options: Record<string, unknown>, handler: (request: Request) => Response | Promise<Response>): DenoHttpServer;
  upgradeWebSocket(request: Request, options: { idleTimeout: number }): { socket: WebSocketLike; response: Response };
  /** An HTTP client with extra trusted roots; Deno's WebSocket takes it as its `client` option (added in late 2025; the pinned 2.9 has it). */
  createHttpClient(options: { caCerts: string[] }): unknown;
}

const runtimeGlobals = globalThis as unknown as { Bun?: BunApi; Deno?: DenoApi; WebSocket?: WebSocketConstructor };

/** Bun's API when this process runs under Bun, else null. */
export function bunApi(): BunApi | null {
  return runtimeGlobals.Bun ?? null;
}

/** Deno's API when this process runs under Deno, else null. */
export function denoApi(): DenoApi | null {
  return runtimeGlobals.Deno ?? null;
}

/** The runtime's built-in WebSocket; throws where there is none. */
export function builtInWebSocket(runtime: string): WebSocketConstructor {
  const ctor = runtimeGlobals.WebSocket;
  if (!ctor) throw new Error(`no built-in WebSocket in this process (the ${runtime} client runs under ${runtime})`);
  return ctor;
}
