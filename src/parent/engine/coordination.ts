/**
 * How the engine lines its measurement windows up with other load machines,
 * without knowing how: a sharded run hands it a coordinator (the shard
 * session implements this), a run on one machine none.
 */

/** Where a cell round's window opens: after the gate lets it through. */
export interface CellGate {
  /** Resolves when the window may open, with what the cell should note about it; rejects when it cannot open in step. */
  arrive(signal: AbortSignal): Promise<string[]>;
  /** This machine will not measure this round (skipped, or failed before its clients were ready): nobody should wait for it. */
  withdraw(reason: string): void;
}

/** One load machine's part in a run spread over several. */
export interface WindowCoordinator {
  /** 0-based place of this machine: its client processes are numbered after those of the machines before it. */
  readonly index: number;
  /** How many machines share the load: each takes its part of every connection count and rate. */
  readonly count: number;
  /** Why this machine cannot take part; every cell fails with it. */
  readonly failure: string | null;
  /** The gate of cell `cell` (its position in the run's expansion) in round `round`. */
  gate(cell: number, round: number): CellGate;
  /** After the last cell: lets pending withdrawals finish. */
  close(): Promise<void>;
}

/** Opens the coordinator when the run starts, before its first cell. */
export type OpenCoordinator = (signal: AbortSignal) => Promise<WindowCoordinator>;
