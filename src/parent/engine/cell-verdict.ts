/**
 * The engine's verdict on a round, the same for every scenario and every kind
 * of server. Two things make it `errors`:
 *   - its connections, from the engine's own ledger (connection-ledger.ts):
 *     every connection lost fails the round (the server closed them or went
 *     away; no traffic ran after that), some lost or some that could not open
 *     give it `errors` (unless the scenario declares `connectionFaults:
 *     'measured'`: then its own metrics say which of them are faults);
 *   - any metric the scenario declares with role `errors` above zero: a fault
 *     it counted (a refused handshake, a client never back, a lost message).
 * None of either keeps it ok. The numbers stay in the cell either way.
 */
import type { MetricRole } from '../../shared/types/declaration-types.js';
import type { CellFault, ConnectionLedger } from '../../shared/types/result-types.js';

/** What the rule reads of a metric's declaration (a scenario's or a result file's). */
interface DeclaredRole {
  header: string;
  role: MetricRole;
}

/** One metric of role `errors` above zero. */
export interface CountedError {
  key: string;
  header: string;
  value: number;
}

/** The metrics of role `errors` whose value is above zero, in declaration order: every one is a fault. */
export function countedErrors(
  declared: Readonly<Record<string, DeclaredRole>>,
  values: Readonly<Record<string, number | null | undefined>>,
): CountedError[] {
  return Object.entries(declared).flatMap(([key, { header, role }]) => {
    const value = values[key];
    return role === 'errors' && typeof value === 'number' && value > 0 ? [{ key, header, value }] : [];
  });
}

/** The counted faults in words: "errors counted: failed 30, never back 2"; null when there are none. */
export function countedErrorsText(counted: readonly CountedError[]): string | null {
  if (counted.length === 0) return null;
  return `errors counted: ${counted.map((c) => `${c.header} ${count(c.value)}`).join(', ')}`;
}

/**
 * The number --max-errors is held against: the largest of the connections lost or that could not
 * open (when the ledger judged them) and each counted metric; null when the cell says none of them.
 */
export function errorCount(
  fault: Pick<CellFault, 'connections'> | null | undefined,
  counted: readonly CountedError[],
): number | null {
  const counts = [
    ...(fault ? [fault.connections.lost + fault.connections.failed] : []),
    ...counted.map((c) => c.value),
  ];
  return counts.length === 0 ? null : Math.max(...counts);
}

interface ConnectionVerdict {
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
    return {
      failure: `every connection was lost (${count(lost)} of ${count(opened)}) ${when}: the server closed them or went away${said}${failedToo}${rates}`,
      errors: null,
      fault,
    };
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
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(Number(n.toPrecision(4)));
}
