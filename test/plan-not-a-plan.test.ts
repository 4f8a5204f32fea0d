/**
 * --config pointed at a file that is no plan (a symlink to a password file) shows none of its text: a key that
 * is no flag's name is named by its line and column, a value or a parser's complaint is cut, and the run is
 * refused in one line with exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';

const SECRET = 'S3cr3tHash';
/** Shaped like /etc/shadow: YAML reads each line as a key ending at its last colon. */
const SHADOW = `root:$6$salt$${SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n`;

function linkedTo(dir: string, name: string, text: string): string {
  const target = join(dir, `target-of-${name}`);
  writeFileSync(target, text);
  symlinkSync(target, join(dir, name));
  return name;
}

test('a plan that is a link to a password-like file: no line of it is shown, only where it is', async () => {
  const dir = tempDir();
  const cases: Array<[string[], string]> = [
    [
      ['run', 'echo', '--config', linkedTo(dir, 'p.yaml', SHADOW)],
      "wsbench: p.yaml: line 1, column 1: a key that is no flag's name (a plan's keys are flags without their dashes, e.g. duration): is it a plan?",
    ],
    [['run', 'echo', '--config', linkedTo(dir, 'p.json', SHADOW)], "wsbench: p.json: not JSON (Unexpected token 'r')"],
    [
      [
        'k8s',
        '--config',
        linkedTo(dir, 'k.yaml', `shards: 2\nimage: wsbench:test\nrun:\n  scenario: echo\n  ${SHADOW.split('\n')[0]}\n`),
      ],
      "wsbench: k.yaml: line 5, column 3: a key that is no flag's name (a plan's keys are flags without their dashes, e.g. duration): is it a plan?",
    ],
    [
      ['run', '--config', linkedTo(dir, 's.yaml', `scenario: echo\ncontrol: "${'x'.repeat(40)}${SECRET}"\n`)],
      `wsbench: s.yaml: control: string "${'x'.repeat(39)}... (cut), where true or false goes (a switch)`,
    ],
  ];
  for (const [args, line] of cases) {
    const outcome = await runCli(args, { cwd: dir });
    assert.equal(usageErrorLine(outcome), line);
    assert.doesNotMatch(outcome.stderr, new RegExp(SECRET));
  }
});

test('a key that is a flag-shaped name is still named, as before', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'plan.yaml'), 'scenario: echo\nconections: 3\n');
  const outcome = await runCli(['run', '--config', 'plan.yaml'], { cwd: dir });
  assert.match(usageErrorLine(outcome), /^wsbench: plan\.yaml: conections: not a flag of run /);
});
