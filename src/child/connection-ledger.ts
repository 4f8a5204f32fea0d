/**
 * The engine's own account of a client process's connections: every connect()
 * a scenario makes is counted here (opened, could not open, lost without the
 * client asking), whatever the scenario does with the outcome, so that a cell
 * whose connections failed can never read as ok. It also notes when the last
 * open connection was lost: from then on no traffic ran, and the process's
 * rates are taken over the time before it.
 */
import type { ConnectionLedger } from '../shared/types/result-types.js';

export class ConnectionBook {
  private opened = 0;
  private failed = 0;
  private lost = 0;
  private open = 0;
  private firstFaultUs: number | null = null;
  private firstReason: string | null = null;
  private allLostUs: number | null = null;

  /** `nowUs`: the process's monotonic clock, in µs. */
  constructor(private readonly nowUs: () => number) {}

  connected(): void {
    this.opened += 1;
    this.open += 1;
    // A scenario that reconnects has traffic again.
    this.allLostUs = null;
  }

  couldNotOpen(reason: string): void {
    this.failed += 1;
    this.fault(this.nowUs(), reason);
  }

  /** A connection closed; `unexpected` (with why) when the client did not ask for it. */
  closed(unexpected: string | null): void {
    this.open = Math.max(0, this.open - 1);
    if (unexpected === null) return;
    this.lost += 1;
    const now = this.nowUs();
    this.fault(now, unexpected);
    if (this.open === 0) this.allLostUs = now;
  }

  private fault(atUs: number, reason: string): void {
    if (this.firstFaultUs !== null) return;
    this.firstFaultUs = atUs;
    this.firstReason = reason.split('\n')[0]!.slice(0, 200);
  }

  /** The ledger with times in ms from `windowStartUs` (0: the window never opened; times are then null). */
  ledger(windowStartUs: number): ConnectionLedger {
    // Unrounded: the traffic's end is the same number as the window the rates divide by.
    const since = (us: number | null): number | null =>
      us === null || windowStartUs === 0 ? null : (us - windowStartUs) / 1000;
    return {
      opened: this.opened,
      failed: this.failed,
      lost: this.lost,
      firstFaultMs: since(this.firstFaultUs),
      firstFault: this.firstReason,
      allLostMs: since(this.allLostUs),
    };
  }

  /** When the traffic ended because every connection was lost, in µs; null while any is open (or none was lost). */
  allLostAtUs(): number | null {
    return this.allLostUs;
  }
}

/** The ledgers of several processes (or rounds, or shards) as one: counts add up, the first fault is the earliest. */
export function sumLedgers(ledgers: ConnectionLedger[]): ConnectionLedger {
  const faulty = ledgers.filter((l) => l.firstFaultMs !== null).sort((a, b) => a.firstFaultMs! - b.firstFaultMs!);
  // Traffic ended for the cell only when it ended in every process: then at the last of those ends.
  const allLost =
    ledgers.length > 0 && ledgers.every((l) => l.allLostMs !== null)
      ? Math.max(...ledgers.map((l) => l.allLostMs!))
      : null;
  return {
    opened: ledgers.reduce((sum, l) => sum + l.opened, 0),
    failed: ledgers.reduce((sum, l) => sum + l.failed, 0),
    lost: ledgers.reduce((sum, l) => sum + l.lost, 0),
    firstFaultMs: faulty[0]?.firstFaultMs ?? null,
    // A process whose window never opened has faults but no times: its reason still counts.
    firstFault: faulty[0]?.firstFault ?? ledgers.find((l) => l.firstFault)?.firstFault ?? null,
    allLostMs: allLost,
  };
}
