/**
 * run({ out }) writes the result file and its report where `wsbench run --out`
 * would, with the same functions; a bad `out` is refused before anything runs;
 * a result that cannot go where asked is saved elsewhere and run() says so,
 * handing the result over; without `out`, run() writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParameterError, ResultWriteError, run } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { tempDir } from './support.js';

const INDEX = fileURLToPath(new URL('../src/parent/index.js', import.meta.url));

test('run({ out }): the JSON, and report.html with its charts in <name>.report/ beside it', async () => {
  const dir = tempDir();
  const out = join(dir, 'echo.json');
  const result = await run('echo', { servers: ['ws'], clients: ['ws'], params: { duration: '300ms' }, out });
  const read = readResultFile(out);
  assert.deepEqual(
    read.cells.map((c) => [c.server, c.client, c.status]),
    result.cells.map((c) => [c.server, c.client, c.status]),
  );
  assert.ok(existsSync(join(dir, 'echo.report', 'report.html')));
  assert.ok(readdirSync(join(dir, 'echo.report', 'charts')).some((name) => name.endsWith('.svg')));
  assert.ok(!existsSync(`${out}.lock`), "the result file's lock is released");
});

test('a bad out is a ParameterError before anything runs; a result that cannot go there is saved elsewhere and handed over', async () => {
  const dir = tempDir();
  await assert.rejects(
    run('echo', { out: join(dir, 'missing', 'r.json') }),
    (error: Error) =>
      error instanceof ParameterError && error.message === `out: directory ${join(dir, 'missing')} does not exist`,
  );

  const gone = join(dir, 'gone');
  execFileSync('mkdir', [gone]);
  const out = join(gone, 'r.json');
  // The folder disappears while the run measures, as a cleaned-up CI workspace would.
  const removeFolder = (event: { type: string }): void => {
    if (event.type === 'window-open') rmSync(gone, { recursive: true, force: true });
  };
  const error = await run('echo', {
    servers: ['ws'],
    clients: ['ws'],
    params: { duration: '300ms' },
    out,
    onEvent: removeFolder,
  }).then(
    () => assert.fail('run() resolved although the JSON did not go where asked'),
    (reason: unknown) => reason,
  );
  assert.ok(error instanceof ResultWriteError, String(error));
  assert.equal(error.result.cells[0]?.status, 'ok', 'the measured result is handed over');
  const savedTo = error.written.saved.path;
  assert.ok(savedTo !== null && savedTo !== out && existsSync(savedTo), error.message);
  assert.match(
    error.message,
    new RegExp(`^results: could not write ${out} \\(its folder no longer exists\\); saved to ${savedTo} instead$`),
  );
  rmSync(savedTo!, { force: true });
  rmSync(savedTo!.replace(/\.json$/, '.report'), { recursive: true, force: true });
});

test('without out, run() writes nothing', () => {
  const dir = tempDir();
  const script = `const { run } = await import(${JSON.stringify(INDEX)}); await run('echo', { servers: ['ws'], clients: ['ws'], params: { duration: '200ms' } });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, stdio: 'pipe' });
  assert.deepEqual(readdirSync(dir), []);
});
