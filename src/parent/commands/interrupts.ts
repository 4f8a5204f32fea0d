/**
 * How `run` and `capacity` answer SIGINT, SIGTERM and SIGHUP (the terminal
 * closed: the run is cut short all the same, and what it measured is written;
 * the exit code is then 129 instead of 130). The first interrupt
 * aborts the work: every wait of the current cell (or step) ends at once, its
 * processes hand in what they measured, and that is written; children still
 * running after a grace period are killed. A second interrupt kills every
 * child (and every server started by command) at once and ends the command
 * within two seconds, written or not, unless it is the first arriving twice (a
 * terminal and a process-group kill both deliver it). Under npm, the package
 * manager going away is the interrupt. Should the work still not end long
 * after the grace, that counts as the second interrupt.
 */
import { killAllChildren } from '../child-processes.js';
import { watchPackageManagerParent } from './npm-parent.js';

/** After the first interrupt, children get this long to hand in what they measured. */
const INTERRUPT_GRACE_MS = 5000;
/** A second interrupt within this long of the first is the same one arriving twice, not a deliberate "force". */
const SAME_INTERRUPT_MS = 1000;
/** After a forced stop, the command ends within this long, whatever it is still doing. */
const FORCED_EXIT_MS = 1500;
/** Beyond the grace, stopping the processes and writing the result get this long before the stop is forced. */
const FINISH_LIMIT_MS = 15_000;
/** The signals that interrupt a run, each answered the same way. */
const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The first interrupt of this process, if any: it sets the exit code. */
let firstInterrupt: NodeJS.Signals | null = null;

/** The exit code of an interrupted command: 129 after SIGHUP (128 + its number, as a shell says), 130 otherwise. */
export function interruptedExitCode(): number {
  return firstInterrupt === 'SIGHUP' ? 129 : 130;
}

/** A signal that came while the command was still reading its flags and planning, not yet answered. */
interface HeldSignal {
  signal: NodeJS.Signals | null;
  onSignal: (signal: NodeJS.Signals) => void;
}
let held: HeldSignal | null = null;

/**
 * From the moment `run` or `capacity` starts until it answers interrupts (answerInterrupts), a signal is held
 * instead of killing it: answerInterrupts answers it at once, so the run writes a result that says it was
 * interrupted before anything was measured. A second signal meanwhile ends the command at once.
 */
export function holdInterrupts(): void {
  if (held !== null) return;
  const state: HeldSignal = {
    signal: takeLoaderHold(),
    onSignal: (signal) => {
      if (state.signal !== null) {
        firstInterrupt ??= state.signal;
        process.stderr.write('\ninterrupted again before the run started\n');
        killAllChildren();
        process.exit(interruptedExitCode());
      }
      state.signal = signal;
    },
  };
  for (const signal of INTERRUPTS) process.on(signal, state.onSignal);
  held = state;
}

/** Where bin/wsbench.js holds the interrupts that come while the CLI loads. */
const LOADER_HOLD = Symbol.for('wsbench.heldInterrupts');

/**
 * Takes over from bin/wsbench.js, which holds interrupts while the CLI loads: its holder stops, and the first
 * signal it held, if any, is returned. Null when wsbench was not started by its bin (the library, a test).
 */
function takeLoaderHold(): NodeJS.Signals | null {
  const loader = (globalThis as Record<symbol, unknown>)[LOADER_HOLD] as
    | { signals: NodeJS.Signals[]; hold: (signal: NodeJS.Signals) => void }
    | undefined;
  if (loader === undefined) return null;
  for (const signal of INTERRUPTS) process.off(signal, loader.hold);
  delete (globalThis as Record<symbol, unknown>)[LOADER_HOLD];
  return loader.signals[0] ?? null;
}

/** For the commands that do not answer interrupts themselves: one held while the CLI loaded ends them now. */
export function leaveIfInterruptedWhileLoading(): void {
  const signal = takeLoaderHold();
  if (signal === null) return;
  firstInterrupt ??= signal;
  process.exit(interruptedExitCode());
}

/** Stops holding signals; the one held, if any. */
function releaseHeld(): NodeJS.Signals | null {
  if (held === null) return null;
  for (const signal of INTERRUPTS) process.off(signal, held.onSignal);
  const signal = held.signal;
  held = null;
  return signal;
}

/**
 * Starts answering interrupts by aborting `controller`; `current` names what finishes ("cell", "step").
 * Returns the function that stops answering (call it once the result is on disk): from then on a first
 * interrupt only says the result is written while the report is finished, and a second ends the command.
 */
export function answerInterrupts(controller: AbortController, current: string): () => void {
  let interruptedAt = 0;
  let forced = false;
  let answered = true;
  let finishTimer: NodeJS.Timeout | undefined;
  const force = (why: string): void => {
    if (forced) return;
    forced = true;
    process.stderr.write(`${why}: stopping every process now\n`);
    killAllChildren();
    // Whatever still holds the command (a write to a hung disk) gets this long; the exit says what was cut short.
    setTimeout(() => {
      process.stderr.write(
        answered
          ? 'wsbench: forced to stop before the result was written\n'
          : 'wsbench: forced to stop after the result was written\n',
      );
      process.exit(interruptedExitCode());
    }, FORCED_EXIT_MS).unref();
  };
  const onSignal = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    if (controller.signal.aborted) {
      if (Date.now() - interruptedAt > SAME_INTERRUPT_MS) force('interrupted again');
      return;
    }
    interruptedAt = Date.now();
    firstInterrupt ??= signal;
    process.stderr.write(
      `\ninterrupted${signal === 'SIGHUP' ? ' (SIGHUP: the terminal closed)' : ''}: finishing the current ${current} and writing what was measured (Ctrl+C again to force)\n`,
    );
    controller.abort();
    setTimeout(killAllChildren, INTERRUPT_GRACE_MS).unref();
    finishTimer = setTimeout(
      () => force(`still not done ${Math.round((INTERRUPT_GRACE_MS + FINISH_LIMIT_MS) / 1000)} s after the interrupt`),
      INTERRUPT_GRACE_MS + FINISH_LIMIT_MS,
    );
    finishTimer.unref();
  };
  for (const signal of INTERRUPTS) process.on(signal, onSignal);
  // A closed terminal fails every later write to it (EIO): that must not end the run before its result is written.
  process.stdout.on('error', ignoreWriteError);
  process.stderr.on('error', ignoreWriteError);
  // Under npx, a SIGTERM to npm reaches only npm's shell: its going away is the interrupt (never a second, forcing one).
  const stopWatchingParent = watchPackageManagerParent(() => controller.signal.aborted || onSignal());
  // A signal that came while the command was planning is answered now.
  const early = releaseHeld();
  if (early !== null) onSignal(early);
  return () => {
    answered = false;
    clearTimeout(finishTimer);
    for (const signal of INTERRUPTS) process.off(signal, onSignal);
    stopWatchingParent();
    // The result is on disk: a signal now must not kill the command before it has finished the report and exits.
    let lateAt = 0;
    const afterResult = (signal: NodeJS.Signals): void => {
      if (lateAt > 0 && Date.now() - lateAt > SAME_INTERRUPT_MS) force('interrupted again');
      if (lateAt > 0) return;
      lateAt = Date.now();
      firstInterrupt ??= signal;
      process.stderr.write('\ninterrupted: the result is written; finishing the report (Ctrl+C again to stop now)\n');
    };
    for (const signal of INTERRUPTS) process.on(signal, afterResult);
  };
}

/** A write to a terminal that is gone: the result file, not the screen, is what must get through. */
function ignoreWriteError(): void {
  // nothing to do: the table is lost with the terminal, the result file is written all the same
}

/**
 * For a command with no children to wait for that holds a lock (`recover`): the first SIGINT,
 * SIGTERM or SIGHUP ends it at once, exit 130 (129 for SIGHUP), through process.exit so that its
 * exit hooks run and release what it holds. Returns the function that stops answering.
 */
export function leaveOnInterrupt(what: string): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    firstInterrupt ??= signal;
    process.stderr.write(`\ninterrupted: ${what} stopped\n`);
    process.exit(interruptedExitCode());
  };
  process.stdout.on('error', ignoreWriteError);
  process.stderr.on('error', ignoreWriteError);
  for (const signal of INTERRUPTS) process.on(signal, onSignal);
  return () => {
    for (const signal of INTERRUPTS) process.off(signal, onSignal);
  };
}
