#!/usr/bin/env -S node --max-semi-space-size=1
// A young generation of 1 MB instead of V8's default 16 MB per semi-space: the
// orchestrator keeps little, but folding a long window's series makes a burst of
// short-lived buffers, and V8 keeps the young generation it grew for the largest
// burst so far. With 1 MB a 1-hour soak's RSS stays flat after warm-up
// (docs/long-runs.md); rendering a report costs about 10 % more CPU.
//
// An interrupt while the CLI loads (half a second, seconds on a busy machine) is held, not fatal:
// `run` and `capacity` answer it with a result, other commands exit 130 (src/parent/commands/interrupts.ts).
const held = { signals: [], hold: (signal) => held.signals.push(signal) };
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, held.hold);
globalThis[Symbol.for('wsbench.heldInterrupts')] = held;
await import('../dist/src/parent/cli.js');
