/**
 * What a round's connections say about its status, from the engine's own
 * ledger (connection-ledger.ts), the same for wsbench's servers and foreign
 * ones: every connection lost fails the round (the server closed them or went
 * away; no traffic ran after that), some lost or some that could not open give
 * it `errors`, and none keeps it ok. The numbers stay in the cell either way:
 * scenarios that measure how many connections a server holds still count them.
 */
import type { CellFault, ConnectionLedger } from '../result-types.js';

export interface ConnectionVerdict {
  /** Set when every connection was lost: the round failed. */
  failure: string | null;
  /** Set when some connections were lost or could not open: the round has errors. */
  errors: string | null;
  fault: CellFault;
}

/** Null when every connection opened and stayed open (or the scenario opened none). */
export function connectionVerdict(ledger: ConnectionLedger): ConnectionVerdict | null {
  const { opened, failed, lost, firstFaultMs, firstFault, allLostMs } = ledger;
  const first = firstFault ? `: ${firstFault}` : '';
  if (failed === 0 && lost === 0) return null;
  const fault: CellFault = {
    atMs: firstFaultMs,
    connections: { opened, failed, lost },
    ...(allLostMs !== null ? { trafficMs: Math.max(0, allLostMs) } : {}),
  };
  if (allLostMs !== null && lost > 0) {
    const when = allLostMs < 0 ? 'before the window opened' : `${seconds(allLostMs)} into the window`;
    const failedToo = failed > 0 ? `, and ${count(failed)} could not open` : '';
    const rates = allLostMs > 0 ? `; rates are over the ${seconds(allLostMs)} the traffic ran` : '';
    const said = firstFault ? ` (the first: ${firstFault})` : '';
    return { failure: `every connection was lost (${count(lost)} of ${count(opened)}) ${when}: the server closed them or went away${said}${failedToo}${rates}`, errors: null, fault };
  }
  const parts = [
    ...(lost > 0 ? [`${count(lost)} of ${count(opened)} connections lost`] : []),
    ...(failed > 0 ? [`${count(failed)} of ${count(opened + failed)} connections could not open`] : []),
  ];
  return { failure: null, errors: `${parts.join('; ')} (the first ${whenText(firstFaultMs)}${first})`, fault };
}

/** A fault's time in words: "2.5 s into the window", "while connecting, 0.4 s before the window opened". */
export function whenText(atMs: number | null): string {
  if (atMs === null) return 'at a time not known';
  if (atMs < 0) return `while connecting, before the window opened`;
  return `${seconds(atMs)} into the window`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
