/**
 * ctx.connect() as the engine wraps it in a client process: every attempt has
 * an overall deadline (a server that accepts TCP and never finishes the
 * handshake cannot hold a client forever), and every outcome is counted in
 * the process's ConnectionBook: opened, could not open, lost, closed.
 */
import type { ClientConnection } from '../shared/types/adapter-types.js';
import type { ConnectionBook } from './connection-ledger.js';

/** A handshake's deadline when the scenario sets none. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/**
 * Opens one connection through `open`, which gets the close hook to hand the adapter.
 * Rejects after `timeoutMs` with an ETIMEDOUT reason; a connection that opens after that
 * is closed at once and counts as one that could not open.
 */
export async function countedConnect(
  book: ConnectionBook,
  timeoutMs: number,
  open: (onUnexpectedClose: (reason: string) => void) => Promise<ClientConnection>,
): Promise<ClientConnection> {
  let late = false;
  let closedUnasked = false;
  const pending = open((reason) => {
    if (late || closedUnasked) return;
    closedUnasked = true;
    book.closed(reason);
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new Error(`ETIMEDOUT: the WebSocket handshake did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  let connection: ClientConnection;
  try {
    connection = await Promise.race([pending, deadline]);
  } catch (error) {
    book.couldNotOpen(error instanceof Error ? error.message : String(error));
    if (late)
      pending.then(
        (c) => c.close(),
        () => undefined,
      );
    throw error;
  } finally {
    clearTimeout(timer);
    // The connection's closures keep this function's scope alive: without this, every open
    // connection would hold its spent deadline (the timer, its callback and the promise).
    timer = undefined;
  }
  book.connected();
  return bookedClose(connection, book, () => closedUnasked);
}

/**
 * Books the client's own close before the adapter's close() runs. The connection is
 * the adapter's own, made for this connect(): its close is replaced in place, not
 * copied into a new object with the rest (a class's methods live on its prototype,
 * where a copy would lose them).
 */
function bookedClose(
  connection: ClientConnection,
  book: ConnectionBook,
  closedUnasked: () => boolean,
): ClientConnection {
  const close = connection.close;
  let closedAsked = false;
  connection.close = function closeBooked(): Promise<void> {
    if (!closedAsked && !closedUnasked()) {
      closedAsked = true;
      book.closed(null);
    }
    return close.call(connection);
  };
  return connection;
}
