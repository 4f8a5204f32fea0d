/**
 * The engine's own account of a client process's connections: every connect()
 * a scenario makes is counted here (opened, could not open, lost without the
 * client asking), whatever the scenario does with the outcome, so that a cell
 * whose connections failed can never read as ok. It also notes when the last
 * open connection was lost: from then on no traffic ran, and the process's
 * rates are taken over the time before it.
 */
import type { ConnectionLedger } from '../result-types.js';

export class ConnectionBook {
  private opened = 0;
  private failed = 0;
  private lost = 0;
  private open = 0;
  private firstFaultUs: number | null = null;
  private allLostUs: number | null = null;

  /** `nowUs`: the process's monotonic clock, in µs. */
  constructor(private readonly nowUs: () => number) {}

  connected(): void {
    this.opened += 1;
    this.open += 1;
    // A scenario that reconnects has traffic again.
    this.allLostUs = null;
  }

  couldNotOpen(): void {
    this.failed += 1;
    this.firstFaultUs ??= this.nowUs();
  }

  /** A connection closed; `unexpected` when the client did not ask for it. */
  closed(unexpected: boolean): void {
    this.open = Math.max(0, this.open - 1);
    if (!unexpected) return;
    this.lost += 1;
    const now = this.nowUs();
    this.firstFaultUs ??= now;
    if (this.open === 0) this.allLostUs = now;
  }

  /** The ledger with times in ms from `windowStartUs` (0: the window never opened; times are then null). */
  ledger(windowStartUs: number): ConnectionLedger {
    const since = (us: number | null): number | null => (us === null || windowStartUs === 0 ? null : round((us - windowStartUs) / 1000));
    return { opened: this.opened, failed: this.failed, lost: this.lost, firstFaultMs: since(this.firstFaultUs), allLostMs: since(this.allLostUs) };
  }

  /** When the traffic ended because every connection was lost, in µs; null while any is open (or none was lost). */
  allLostAtUs(): number | null {
    return this.allLostUs;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The ledgers of several processes (or rounds, or shards) as one: counts add up, the first fault is the earliest. */
export function sumLedgers(ledgers: ConnectionLedger[]): ConnectionLedger {
  const firsts = ledgers.map((l) => l.firstFaultMs).filter((t): t is number => t !== null);
  // Traffic ended for the cell only when it ended in every process: then at the last of those ends.
  const allLost = ledgers.length > 0 && ledgers.every((l) => l.allLostMs !== null) ? Math.max(...ledgers.map((l) => l.allLostMs!)) : null;
  return {
    opened: ledgers.reduce((sum, l) => sum + l.opened, 0),
    failed: ledgers.reduce((sum, l) => sum + l.failed, 0),
    lost: ledgers.reduce((sum, l) => sum + l.lost, 0),
    firstFaultMs: firsts.length ? Math.min(...firsts) : null,
    allLostMs: allLost,
  };
}
