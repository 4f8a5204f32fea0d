/**
 * docs/design.md's layer table matches the folders: one row for every folder of
 * src/ two levels down (a group and its subfolders), none for a folder that is
 * gone, and each group's "may import" as test/folder-groups.ts has it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAY_IMPORT, type Group } from './folder-groups.js';
import { REPO_ROOT } from './support.js';

/** The rows of the table under "## Layers": folder -> its "may import" cell. */
function layerTable(): Map<string, string> {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'design.md'), 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith('Layers'));
  assert.ok(section, 'docs/design.md has a "## Layers" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = /^\|\s*`([^`]+)`\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (cells) rows.set(cells[1]!, cells[3]!.trim());
  }
  return rows;
}

/** src/'s folders, a group and its subfolders. */
function folders(): string[] {
  const below = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${dir}/${entry.name}`);
  return below('src').flatMap((group) => [group, ...below(group)]);
}

test("docs/design.md's layer table has a row for every folder of src/ two levels down, and none for a folder that is gone", () => {
  const rows = layerTable();
  const named = [...rows.keys()].filter((folder) => folder.startsWith('src/'));
  const real = folders();
  assert.deepEqual(
    real.filter((folder) => !rows.has(folder)),
    [],
    'folders without their row in the table',
  );
  assert.deepEqual(
    named.filter((folder) => !real.includes(folder)),
    [],
    'rows for folders that do not exist',
  );
});

test("the table's groups may import what the folder rule lets them", () => {
  const rows = layerTable();
  for (const [group, allowed] of Object.entries(MAY_IMPORT) as Array<[Group, readonly Group[]]>) {
    const cell = rows.get(group);
    assert.ok(cell !== undefined, `no row for ${group}`);
    const said = [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    assert.deepEqual(said.filter((name) => name in MAY_IMPORT).sort(), [...allowed].sort(), `${group}: ${cell}`);
  }
});
