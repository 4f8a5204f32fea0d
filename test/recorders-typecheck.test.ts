/**
 * Metric keys are typed from the recorders' one declaration: in a strict
 * TypeScript scenario, a misspelt key in the table, a misspelt histogram in a
 * chart, a misspelt recorder in the code and a misspelt key of the scenario's
 * metrics are each a compile error naming the name, and the same scenario
 * spelt right compiles. Checked by the TypeScript in node_modules against the
 * kit's published declarations (dist/), as a user's project sees them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, tempDir } from './support.js';

const scenario = (slip: { table?: string; chart?: string; recorder?: string; key?: string } = {}): string => `
import { counter, defineScenario, histogram } from 'wsbench/scenario';

const rpc = defineScenario({
  name: 'rpc',
  description: 'one request in flight per connection',
  parameters: { connections: { kind: 'integer', description: 'connections', default: 2, min: 1 } },
  recorders: {
    rtt: histogram({ stats: ['p50', 'p99'], primary: ['p99'] }),
    wrong: counter({ total: { role: 'errors' } }),
    replies: counter({ rate: { key: 'requestsPerSec', role: 'primary-rate' } }),
  },
  async connection(conn, ctx) {
    const requests = conn.requests({ time: ctx.recorders.${slip.recorder ?? 'rtt'}, wrong: ctx.recorders.wrong, answered: ctx.recorders.replies });
    for (let id = 1; ; id++) await requests.send(JSON.stringify({ id }), { id });
  },
  table: ['rttP50Ms', '${slip.table ?? 'rttP99Ms'}', 'requestsPerSec', 'wrong'],
  charts: [{ kind: 'percentiles', histograms: ['${slip.chart ?? 'rtt'}'] }],
});
export const headline: keyof typeof rpc.metrics = '${slip.key ?? 'rttP99Ms'}';
export default rpc;
`;

/** The compile errors of each file, as TypeScript words them. */
function compileErrors(files: Record<string, string>): Record<string, string[]> {
  const dir = tempDir();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'wsbench'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, name)),
    {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
    },
  );
  const errors: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((name) => [name, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file ? diagnostic.file.fileName.slice(dir.length + 1) : '(no file)';
    (errors[name] ??= []).push(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
  }
  return errors;
}

test('a misspelt table key, chart histogram, recorder or metric key is a compile error; spelt right, it compiles', {
  timeout: 120_000,
}, () => {
  const errors = compileErrors({
    'right.ts': scenario(),
    'table.ts': scenario({ table: 'rttP99MS' }),
    'chart.ts': scenario({ chart: 'rtx' }),
    'recorder.ts': scenario({ recorder: 'rtx' }),
    'key.ts': scenario({ key: 'rttP95Ms' }),
  });
  assert.deepEqual(errors['right.ts'], [], 'the scenario spelt right compiles');
  const one = (file: string, name: string): void => {
    assert.equal(errors[file]?.length, 1, `${file}: ${errors[file]?.join(' | ')}`);
    assert.match(errors[file]![0]!, new RegExp(`'?"?${name}"?'?`), `${file} names ${name}`);
  };
  one('table.ts', 'rttP99MS');
  one('chart.ts', 'rtx');
  one('recorder.ts', 'rtx');
  one('key.ts', 'rttP95Ms');
  // The error lists the keys there are, and the nearest.
  const listed = /"rttP99MS"' is not assignable to type '([^']+)'\. Did you mean '"rttP99Ms"'\?/.exec(
    errors['table.ts']![0]!,
  );
  assert.ok(listed, errors['table.ts']![0]);
  assert.deepEqual(listed[1]!.split(' | ').sort(), ['"requestsPerSec"', '"rttP50Ms"', '"rttP99Ms"', '"wrong"']);
});
