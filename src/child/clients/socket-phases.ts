/**
 * The steps of opening a connection, timed off its Node socket: `connect`
 * (TCP established), `secureConnect` (TLS done), and the open the adapter
 * reports. performance.now() is monotonic in every runtime; only differences
 * of it leave this process.
 */
import type { HandshakePhases } from '../../shared/types/adapter-types.js';

/** A socket as far as the steps are concerned: net.Socket and tls.TLSSocket both fit. */
interface TimedSocket {
  once(event: 'connect' | 'secureConnect', listener: () => void): unknown;
  /** True until TCP is established; a socket handed over later would hide its connect. */
  connecting?: boolean;
}

export class SocketPhases {
  private readonly startMs = performance.now();
  private tcpMs: number | null = null;
  private tlsMs: number | null = null;
  private openMs: number | null = null;
  private lateReason: string | null = null;

  /** Starts timing the socket's steps; call it as soon as the socket exists. */
  watch(socket: TimedSocket, secure: boolean): void {
    if (socket.connecting === false) {
      this.lateReason = 'the socket was handed over already connected';
      return;
    }
    socket.once('connect', () => (this.tcpMs ??= performance.now()));
    if (secure) socket.once('secureConnect', () => (this.tlsMs ??= performance.now()));
  }

  /** The connection opened (the WebSocket's open, socket.io's connect). */
  opened(): void {
    this.openMs ??= performance.now();
  }

  result(): HandshakePhases {
    const openMs = this.openMs ?? performance.now();
    const totalUs = (openMs - this.startMs) * 1000;
    if (this.tcpMs === null)
      return {
        tcpConnectUs: null,
        tlsHandshakeUs: null,
        upgradeUs: null,
        totalUs,
        reason: this.lateReason ?? 'the socket never said it connected',
      };
    const readyMs = this.tlsMs ?? this.tcpMs;
    return {
      tcpConnectUs: (this.tcpMs - this.startMs) * 1000,
      tlsHandshakeUs: this.tlsMs === null ? null : (this.tlsMs - this.tcpMs) * 1000,
      upgradeUs: (openMs - readyMs) * 1000,
      totalUs,
    };
  }
}

/** For stacks that keep their socket to themselves: the total, timed around connect(), and why no steps. */
export class TotalOnlyPhases {
  private readonly startMs = performance.now();
  private openMs: number | null = null;

  constructor(private readonly reason: string) {}

  opened(): void {
    this.openMs ??= performance.now();
  }

  result(): HandshakePhases {
    const totalUs = ((this.openMs ?? performance.now()) - this.startMs) * 1000;
    return { tcpConnectUs: null, tlsHandshakeUs: null, upgradeUs: null, totalUs, reason: this.reason };
  }
}
