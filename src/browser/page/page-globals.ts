/**
 * The few browser APIs the page code uses, typed here: the project compiles
 * against Node's types only (adding the DOM library would type every Node file
 * against browser globals too).
 */

export interface BrowserWebSocket {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly extensions: string;
  send(data: string | ArrayBufferView | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'error' | 'close' | 'message',
    listener: (event: { data?: unknown; code?: number; reason?: string }) => void,
  ): void;
}

interface PageGlobals {
  WebSocket: new (url: string, protocols?: string[]) => BrowserWebSocket;
  location: { href: string; search: string; host: string; pathname: string };
  navigator: { userAgent: string };
  crossOriginIsolated?: boolean;
}

export const page = globalThis as unknown as PageGlobals;

/** The page's clock in µs (performance.now(), 5 µs steps when the page is cross-origin isolated). */
export function pageUs(): number {
  return performance.now() * 1000;
}
