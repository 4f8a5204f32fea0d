/**
 * A test plan key the flags would refuse is one line naming the plan's file
 * and the key's path, exit 2, before anything starts: a key no flag of the
 * command has, another command's flag, a value of the wrong shape, a value the
 * flag's own reader or the library refuses. A plan is read through the same
 * declarations as the command line, so for every flag with a reader, the plan
 * and the command line are refused with the same words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAGS } from '../src/parent/commands/flags/index.js';
import { COMMAND_NAMES, FlagProblem, planKeyOf, type CommandName } from '../src/parent/commands/flags/flag-types.js';
import { runCli, tempDir, usageErrorLine } from './support.js';

const dir = tempDir();
let plans = 0;

/** Writes `text` as a new plan file; returns its name (relative to `dir`, where the CLI runs). */
function plan(text: string, extension = 'yaml'): string {
  const name = `plan-${++plans}.${extension}`;
  writeFileSync(join(dir, name), text);
  return name;
}

/** [what, argv, the line after "wsbench: "], each plan written now. */
function cases(): Array<[string, string[], string]> {
  const unknown = plan('scenario: echo\nconections: 3\n');
  const otherCommand = plan('scenario: echo\nmax: 5\n');
  const libraryRefuses = plan('scenario: echo\nconnections: -3\n');
  const readerRefuses = plan('scenario: echo\nclient-procs: two\n');
  const wrongShape = plan('scenario: echo\ncontrol: "yes"\n');
  const dashes = plan('scenario: echo\n--servers: ws\n');
  const list = plan('- echo\n');
  const broken = plan('scenario: [echo\n');
  const json = plan('{"scenario": "echo", "duration": 5}', 'json');
  const k8s = plan(
    'shards: 2\nimage: wsbench:test\nrun:\n  scenario: echo\n  target: ws://127.0.0.1:9/\n  connections: 0\n',
  );
  const compare = plan('base: a.json\nnew: b.json\ninconclusive: maybe\n');
  const nested = plan('scenario: echo\nconfig: other.yaml\n');
  return [
    [
      'a key that is no flag of run nor a parameter',
      ['run', '--config', unknown],
      `${unknown}: conections: not a flag of run nor a parameter of echo: did you mean "connections"? (wsbench run echo --help lists them)`,
    ],
    [
      "another command's flag",
      ['run', '--config', otherCommand],
      `${otherCommand}: max: a flag of capacity, not of run`,
    ],
    [
      'a value the library refuses',
      ['run', '--config', libraryRefuses],
      `${libraryRefuses}: connections: -3 is below the minimum 1`,
    ],
    [
      "a value the flag's reader refuses",
      ['run', '--config', readerRefuses],
      `${readerRefuses}: client-procs: "two" is not a whole number`,
    ],
    [
      'text where a switch goes',
      ['run', '--config', wrongShape],
      `${wrongShape}: control: string "yes", where true or false goes (a switch)`,
    ],
    [
      'a key written with dashes',
      ['run', '--config', dashes],
      `${dashes}: --servers: write the flag without its dashes (servers)`,
    ],
    [
      'a list, not keys',
      ['run', '--config', list],
      `${list}: the plan is a list: write it as keys and values, one key per flag`,
    ],
    [
      'not YAML',
      ['run', '--config', broken],
      `${broken}: not YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:)`,
    ],
    [
      'a JSON plan: a duration without its unit',
      ['run', '--config', json],
      `${json}: duration: "5" has no unit: write 5s or 5ms`,
    ],
    ['k8s: a key of its run section', ['k8s', '--config', k8s], `${k8s}: run.connections: 0 is below the minimum 1`],
    [
      'compare: a value not among the choices',
      ['compare', '--config', compare],
      `${compare}: inconclusive: "maybe" is not one of pass, fail`,
    ],
    [
      'a plan naming another plan',
      ['run', '--config', nested],
      `${nested}: config: a plan names no other plan (--config goes on the command line)`,
    ],
  ];
}

test('each refused key is one line naming the file and the key, exit 2, nothing started', {
  timeout: 120_000,
}, async () => {
  const all = cases();
  const outcomes = await Promise.all(all.map(([, args]) => runCli(args, { cwd: dir, timeoutMs: 60_000 })));
  const wrong = all.flatMap(([what, , line], i) => {
    try {
      assert.equal(usageErrorLine(outcomes[i]!), `wsbench: ${line}`);
      return [];
    } catch (error) {
      return [
        `${what}: ${(error as Error).message.split('\n')[0]} (exit ${outcomes[i]!.code}: ${outcomes[i]!.stderr.trim()})`,
      ];
    }
  });
  assert.deepEqual(wrong, []);
});

/** What each command needs besides the flag under test, so that the flag's reader is what refuses. */
const NEEDS: Partial<Record<CommandName, { operands: string[]; flags: Array<[string, string]> }>> = {
  run: { operands: ['echo'], flags: [] },
  capacity: { operands: ['echo'], flags: [['--slo', 'p99<1s']] },
  compare: { operands: ['a.json', 'b.json'], flags: [] },
  k8s: {
    operands: [],
    flags: [
      ['--image', 'wsbench:test'],
      ['--shards', '1'],
    ],
  },
};

/** Flags read only beside another: what makes them read. */
const ALSO: Record<string, string[]> = {
  '--server-start-timeout': ['--server-cmd', 'own=true'],
  '--barrier-timeout': [
    '--shard',
    '0/1',
    '--run-id',
    'r',
    '--barrier',
    'http://127.0.0.1:9/',
    '--target',
    'ws://127.0.0.1:9/',
  ],
};

/** A refusal comes at startup; a command that was not refused would start measuring, and is stopped here. */
const REFUSAL_DEADLINE_MS = 30_000;

test("for every flag with a reader, a plan's value is refused with the words the flag's are (the same reader)", {
  timeout: 120_000,
}, async () => {
  // One command per flag: a flag's reader is one function, whichever command reads it.
  const flags = FLAGS.filter((d) => d.read !== undefined).map((d) => ({
    d,
    name: COMMAND_NAMES.find((name) => d.commands[name] !== undefined)!,
  }));
  assert.ok(flags.length >= 10, `flags with readers: ${flags.length}`);
  const jobs = flags.map(({ d, name }) => async () => {
    const needs = NEEDS[name];
    assert.ok(needs, `${name}: add what it needs to NEEDS`);
    const base = [
      ...needs.operands,
      ...needs.flags.filter(([flag]) => flag !== d.flag).flat(),
      ...(ALSO[d.flag] ?? []),
    ];
    const file = plan(`${planKeyOf(d.flag)}: nonsense\n`);
    return {
      d,
      name,
      file,
      planned: await runCli([name, ...base, '--config', file], { cwd: dir, timeoutMs: REFUSAL_DEADLINE_MS }),
    };
  });
  for (const { d, name, file, planned } of await inTurns(jobs, 3)) {
    // What the command line says of `--flag nonsense` is `--flag: ` and this problem (readFlag in src/parent/commands/flags/index.ts).
    const problem = refusal(() => d.read!('nonsense'));
    assert.equal(
      usageErrorLine(planned),
      `wsbench: ${file}: ${planKeyOf(d.flag)}: ${problem}`,
      `${name}, ${d.flag} from a plan`,
    );
  }
});

test('the command line says the same of a typed flag: --flag and the problem', { timeout: 60_000 }, async () => {
  const typed = await runCli(['run', 'echo', '--client-procs', 'nonsense'], { cwd: dir });
  const planned = await runCli(['run', 'echo', '--config', plan('client-procs: nonsense\n')], { cwd: dir });
  assert.equal(
    usageErrorLine(typed).replace('--client-procs:', 'PLACE:'),
    usageErrorLine(planned).replace(/[^ ]+\.yaml: client-procs:/, 'PLACE:'),
  );
});

/** The problem a reader throws. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof FlagProblem) return error.message;
    throw error;
  }
  throw new Error('the reader took "nonsense"');
}

/** Runs `jobs` at most `width` at a time (each starts CLI processes on a shared 2-core machine), results in order. */
async function inTurns<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}
