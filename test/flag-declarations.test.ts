/**
 * Every flag is declared once, in src/parent/commands/flags/, and every option a
 * command's --help lists comes from those declarations (or is one of the
 * scenario's parameters, or commander's own --help): an option added to a
 * command by hand, or a flag declared twice, fails here. The names a library
 * error uses map to the declared flags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLAGS, flagFor, flagsOf, reservedNames } from '../src/parent/commands/flags/index.js';
import { attributeOf, COMMAND_NAMES, useOf, type CommandName } from '../src/parent/commands/flags/flag-types.js';
import { toKebab } from '../src/parent/commands/parameter-flags.js';
import { loadScenario } from '../src/child/scenario-loader.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { runCli } from './support.js';

/** Each command's --help, with a scenario where its flags depend on one. */
const HELP_ARGS: Record<CommandName, string[]> = {
  run: ['run', 'echo', '--help'],
  capacity: ['capacity', 'echo', '--help'],
  recover: ['recover', '--help'],
  merge: ['merge', '--help'],
  compare: ['compare', '--help'],
  report: ['report', '--help'],
  k8s: ['k8s', '--help'],
  list: ['list', '--help'],
};

/** The long options a --help lists, in its order. */
function helpFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z0-9-]+)/gm)].map((m) => m[1]!);
}

test('no two declarations share a flag, a stored name or a library parameter', () => {
  const flags = FLAGS.map((d) => d.flag);
  assert.deepEqual(
    flags.filter((f, i) => flags.indexOf(f) !== i),
    [],
    'flags declared twice',
  );
  const attributes = FLAGS.map((d) => attributeOf(d.flag));
  assert.deepEqual(
    attributes.filter((a, i) => attributes.indexOf(a) !== i),
    [],
    'flags commander would store under one name',
  );
  const parameters = FLAGS.flatMap((d) => (d.parameter === undefined ? [] : [d.parameter]));
  assert.deepEqual(
    parameters.filter((p, i) => parameters.indexOf(p) !== i),
    [],
    'library parameters set by two flags',
  );
  for (const declaration of FLAGS) {
    const commands = COMMAND_NAMES.filter((name) => declaration.commands[name] !== undefined);
    assert.ok(commands.length > 0, `${declaration.flag} is taken by no command`);
    for (const name of commands)
      assert.ok(useOf(declaration, name)!.help ?? declaration.help, `${declaration.flag} has no help in ${name}`);
  }
});

test("every option of every command's --help is a declared flag of that command, in declaration order", async () => {
  const echo = scenarioInfo((await loadScenario('echo')).scenario);
  const parameterFlags = Object.keys(echo.parameters).map((name) => `--${toKebab(name)}`);
  const outcomes = await Promise.all(COMMAND_NAMES.map((name) => runCli(HELP_ARGS[name])));
  COMMAND_NAMES.forEach((name, i) => {
    const outcome = outcomes[i]!;
    assert.equal(outcome.code, 0, `${name} --help: ${outcome.stderr}`);
    const listed = helpFlags(outcome.stdout).filter((flag) => flag !== '--help');
    const own =
      name === 'run' || name === 'capacity' ? listed.filter((flag) => !parameterFlags.includes(flag)) : listed;
    assert.deepEqual(
      own,
      flagsOf(name).map((d) => d.flag),
      `${name}: the options --help lists, less the scenario's parameters`,
    );
  });
});

test("a scenario parameter may not take a command's flag name; library errors name the declared flag", () => {
  for (const name of COMMAND_NAMES) {
    for (const declaration of flagsOf(name))
      assert.ok(reservedNames(name).includes(attributeOf(declaration.flag)), `${name} reserves ${declaration.flag}`);
  }
  assert.equal(flagFor('clientProcesses'), '--client-procs');
  assert.equal(flagFor('targets'), '--target');
  assert.equal(flagFor('serverCommands'), '--server-cmd');
  // Not declared: a scenario parameter, named as its flag.
  assert.equal(flagFor('serverProcesses'), '--server-processes');
});
