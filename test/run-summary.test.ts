/**
 * `run --summary FILE`: the result as Markdown appended to a step summary:
 * the table with each key number's interval, the SLO column, what to pick,
 * and the statistics notes; what the file held stays; a summary that cannot
 * be written is refused before anything runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, runArgs } from './support.js';

test('run --summary appends the Markdown result; a missing folder is exit 2 before the run', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '# earlier step\n');
  const outcome = await runCli(
    runArgs(
      'echo',
      'ws,uws',
      'ws',
      '--duration',
      '500ms',
      '--slo',
      'p99<10s',
      '--summary',
      summary,
      '--out',
      join(dir, 'r.json'),
    ),
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const text = readFileSync(summary, 'utf8');
  assert.ok(text.startsWith('# earlier step\n\n## wsbench run\n'), text.slice(0, 80));
  assert.match(text, /^\| server \| client \| status \| slo \| p50 ms \| p99 ms \|/m);
  assert.match(text, /^\| ws \| ws \| ok[^|]* \| pass \| \d\.\d+ (±\d\.\d+|\\\[\d\.\d+, \d\.\d+\\\]) \|/m);
  assert.match(text, /^\*\*What to pick\*\*/m);
  assert.match(text, /^- servers on p50 ms: /m);
  assert.match(text, /^slo {2}p99<10s: 2 pass/m);

  const refused = await runCli(
    runArgs(
      'echo',
      'ws',
      'ws',
      '--duration',
      '300ms',
      '--summary',
      join(dir, 'no', 'such.md'),
      '--out',
      join(dir, 'x.json'),
    ),
  );
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^wsbench: --summary: directory .* does not exist$/m);
});
