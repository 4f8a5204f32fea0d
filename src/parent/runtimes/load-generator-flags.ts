/**
 * V8 settings of the Node processes that generate load: wsbench's client processes,
 * and the bare loops `npm run bench` compares them with (measured alike).
 *
 * Why a fixed young generation: V8 sizes its nursery (the semi-spaces) as it goes, and
 * on this project's 2-core VM up to half of the Node processes running an echo loop
 * settled into a kind that cost 20-35 % more CPU per message for their whole life
 * (bare ws loops, no wsbench code: 14.8-15.4 µs per message against 18.2-20.5 µs, 4 of
 * 8 processes in one run). With the nursery fixed, every process ran at the fast cost:
 * 16 of 16 at 16 MiB, 8 of 8 at 1 MiB. 16 MiB is V8's own 64-bit maximum, the size its
 * default policy grows to. A load generator's cost per message then depends on its
 * code, not on heap-sizing luck. The price is memory: up to 32 MiB more RSS per client
 * process (two semi-spaces). README, "Measuring the tool itself", has the runs.
 *
 * The flags come before the ones wsbench itself was started with, so
 * `node --max-semi-space-size=N wsbench ...` still has the last word.
 */
const LOAD_GENERATOR_V8_FLAGS: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/** Node arguments for a forked load-generating child: ours, then this process's own. */
export function loadGeneratorExecArgv(): string[] {
  return [...LOAD_GENERATOR_V8_FLAGS, ...process.execArgv];
}
