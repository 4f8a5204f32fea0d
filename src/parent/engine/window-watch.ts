/**
 * Ends a cell's window early once nothing is left to measure: its server is
 * dead, or every connection of every client process is gone. Waiting out the
 * window would cost its whole length (an hour with --duration 1h) and add
 * nothing. The cell still reads failed or errors with its reason (the
 * server's report and the connection ledger say it), and what was measured
 * until then is kept, its rates over the time the traffic ran.
 *
 * A planned restart is no death (RestartingServer says so). A scenario that
 * measures its own connection faults (churn, a reconnect storm) drops
 * connections on purpose, and one with a restart loses them all at the kill:
 * only its server's death ends those.
 */
import type { ManagedChild } from '../child-processes.js';
import type { CellServer } from '../server-lifecycles/types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';

/** How often the server and the clients' connections are looked at: a /proc read or two each time. */
const WATCH_MS = 250;
/**
 * Once the server is seen dead, how long its clients get to see their connections close, so that
 * the ledger has the losses (and the rates the time the traffic ran) before the window closes.
 */
const DEAD_SERVER_GRACE_MS = 1000;

interface WindowWatch {
  /** The window closed: stop watching (safe to call more than once). */
  stop(): void;
}

/** Watches the open window of `clients` against `server`; tells every client to stop when nothing is left to measure. */
export function watchWindow(server: CellServer, clients: readonly ManagedChild[], scenario: AnyScenario): WindowWatch {
  const endsWithConnections = scenario.connectionFaults !== 'measured' && !scenario.serverRestart;
  let deadSince: number | null = null;
  const timer = setInterval(() => {
    const allLost = clients.length > 0 && clients.every((client) => client.connectionsAllLost);
    if (deadSince === null && server.gone?.()) deadSince = Date.now();
    const serverDead = deadSince !== null && (allLost || Date.now() - deadSince >= DEAD_SERVER_GRACE_MS);
    if (!serverDead && !(endsWithConnections && allLost)) return;
    clearInterval(timer);
    for (const client of clients) client.send({ type: 'stop' });
  }, WATCH_MS);
  // Never what keeps wsbench running.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
