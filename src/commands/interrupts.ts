/**
 * How `run` and `capacity` answer SIGINT and SIGTERM. The first interrupt
 * aborts the work: the current cell (or step) ends and what was measured is
 * written; children still running after a grace period are killed. A second
 * interrupt kills every child at once, so the command ends within seconds,
 * unless it is the first arriving twice (a terminal and a process-group kill
 * both deliver it). Under npm, the package manager going away is the interrupt.
 */
import { killAllChildren } from '../core/processes.js';
import { watchPackageManagerParent } from './npm-parent.js';

/** After the first interrupt, children get this long to hand in what they measured. */
const INTERRUPT_GRACE_MS = 5000;
/** A second interrupt within this long of the first is the same one arriving twice, not a deliberate "force". */
const SAME_INTERRUPT_MS = 1000;

/**
 * Starts answering interrupts by aborting `controller`; `current` names what finishes ("cell", "step").
 * Returns the function that stops answering (call it once the result is on disk).
 */
export function answerInterrupts(controller: AbortController, current: string): () => void {
  let interruptedAt = 0;
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      if (Date.now() - interruptedAt > SAME_INTERRUPT_MS) killAllChildren();
      return;
    }
    interruptedAt = Date.now();
    process.stderr.write(`\ninterrupted: finishing the current ${current} and writing what was measured (Ctrl+C again to force)\n`);
    controller.abort();
    setTimeout(killAllChildren, INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Under npx, a SIGTERM to npm reaches only npm's shell: its going away is the interrupt (never a second, forcing one).
  const stopWatchingParent = watchPackageManagerParent(() => controller.signal.aborted || onSignal());
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingParent();
  };
}
