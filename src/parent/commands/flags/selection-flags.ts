/**
 * The flags that say what runs or is compared: the test plan, the stacks, the
 * capacity search, the client processes, rounds, the noise control, the SLO
 * and the gate. In --help order (see index.ts).
 */
import type { FlagDeclaration } from './flag-types.js';
import { duration, oneOf, percentage, share, wholeNumber } from './readers.js';
import { INCONCLUSIVE_POLICIES } from '../../compare/compare-gate.js';

const SERVERS_HELP =
  'server stacks, comma separated (default: all; none beside --target or --server-cmd servers unless named)';

export const SELECTION_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--config',
    value: '<file>',
    help: "a test plan (.yaml, .yml or .json): its keys are this command's flags without their dashes; flags given here override it (docs/test-plans.md)",
    commands: {
      run: true,
      capacity: true,
      recover: true,
      merge: true,
      compare: true,
      report: true,
      k8s: true,
      list: true,
    },
  },
  {
    flag: '--servers',
    value: '<list>',
    many: 'comma',
    commands: {
      run: { help: SERVERS_HELP },
      capacity: { help: SERVERS_HELP },
      compare: {
        value: '<base,new>',
        help: 'compare two servers of one result (e.g. two --server-cmd builds of one --repeat run): their rounds pair up one by one',
      },
    },
  },
  {
    flag: '--fail-on-regression',
    value: '<pct>',
    help:
      'exit 1 when a cell got significantly worse (its whole 95% interval on the worse side) by more than this many percent; ' +
      'a cell failed, skipped or missing in <new>, or a rise in errors, always counts',
    read: percentage,
    commands: { compare: true },
  },
  {
    flag: '--inconclusive',
    value: '<pass|fail>',
    help: 'with --fail-on-regression: what a change the data cannot decide does to the gate; fail exits 3',
    default: 'pass',
    read: oneOf(INCONCLUSIVE_POLICIES),
    commands: { compare: true },
  },
  {
    flag: '--clients',
    value: '<list>',
    many: 'comma',
    commands: {
      run: {
        help: 'client stacks, comma separated (default: all but browser and browser-socketio, which start a real browser: name them)',
      },
      capacity: {
        help: 'client stacks; each server gets the first that speaks its protocol (default: ws, then the others)',
      },
    },
  },
  {
    flag: '--vary',
    value: '<parameter>',
    help: 'the whole-number parameter to search',
    default: 'connections',
    commands: { capacity: true },
  },
  {
    flag: '--start',
    value: '<n>',
    help: 'first count of the ramp (default 100)',
    read: wholeNumber(),
    commands: { capacity: true },
  },
  {
    flag: '--max',
    value: '<n>',
    help: 'highest count tried (default 50000)',
    read: wholeNumber(),
    commands: { capacity: true },
  },
  {
    flag: '--resolution',
    value: '<share>',
    help: 'stop bisecting when the bracket is within this share of the capacity, e.g. 10% or 0.05',
    default: '10%',
    read: share,
    commands: { capacity: true },
  },
  {
    flag: '--confirm',
    value: '<n>',
    help: 'tries more of each end of the bracket once it is found, so it says how often each held (0: none)',
    default: '2',
    read: wholeNumber(),
    commands: { capacity: true },
  },
  {
    flag: '--client-procs',
    value: '<n>',
    default: '1',
    parameter: 'clientProcesses',
    read: wholeNumber(),
    commands: {
      run: { help: 'load-generating processes per cell' },
      capacity: { help: 'client processes of the first step' },
    },
  },
  {
    flag: '--max-client-processes',
    value: '<n>',
    help: 'most client processes a step may use when the load generator saturates (default: the cores)',
    read: wholeNumber(),
    commands: { capacity: true },
  },
  {
    flag: '--repeat',
    value: '<n>',
    help: 'rounds per cell, interleaved over the cells; each cell pools its rounds',
    default: '1',
    read: wholeNumber(),
    commands: { run: true },
  },
  {
    flag: '--until-decided',
    help: 'after the first rounds (--repeat, at least 3), keep adding interleaved rounds until every ranking of what to pick and every --slo verdict is decided, or --budget is spent; the looks share the 95 % out (docs/reading-results.md)',
    commands: { run: true },
  },
  {
    flag: '--budget',
    value: '<duration>',
    help: 'the wall time --until-decided may take in all, e.g. 3m or 90s (default 3m)',
    read: duration('3m or 90s'),
    commands: { run: true },
  },
  {
    flag: '--max-errors',
    value: '<n>',
    help: 'connections a cell may lose or fail to open and still let the run exit 0 (its status stays errors)',
    default: '0',
    read: wholeNumber(),
    commands: {
      run: true,
      merge: { help: 'errors a merged cell may have and still let merge exit 0 (its status stays errors)' },
    },
  },
  {
    flag: '--summary',
    value: '<file>',
    commands: {
      run: {
        help: 'also append the result as Markdown (table, what to pick, SLO) to this file (e.g. "$GITHUB_STEP_SUMMARY")',
      },
      compare: { help: 'also append the Markdown comparison to this file (e.g. "$GITHUB_STEP_SUMMARY")' },
    },
  },
  {
    flag: '--control',
    help: "measure this machine's noise: the first pair again, as the first and the last cell of every round; the result says how far the two read apart",
    commands: { run: true },
  },
  {
    flag: '--slo',
    value: '<clauses>',
    commands: {
      run: {
        help: "what every cell must keep, e.g. 'p99<10ms,errors=0' (capacity's grammar); judged on each value's 95% interval: pass, fail (exit 1) or inconclusive",
      },
      capacity: {
        help: "what must hold, e.g. 'p99<500ms,errors=0' (p50/p90/p99/p999/mean/max of the primary latency, errors = every errors-role metric, or a metric key)",
      },
    },
  },
];
