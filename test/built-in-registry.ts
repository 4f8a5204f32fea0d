/**
 * The text of src/built-in-scenarios.ts, made from the built-in scenarios'
 * own declarations: each parameter's kind (and a choice's words), which is all
 * the library's types need to check `params` given to a built-in by name.
 * test/built-in-registry.test.ts fails when the file differs; to regenerate it:
 *
 *   npx tsc -p tsconfig.json && node dist/test/built-in-registry.js > src/built-in-scenarios.ts
 */
import { fileURLToPath } from 'node:url';
import { builtInScenarios, loadScenario } from '../src/child/scenario-loader.js';
import type { ParameterSpec } from '../src/declaration-types.js';

const TYPES: Record<ParameterSpec['kind'], string> = {
  integer: 'IntegerParameter',
  number: 'NumberParameter',
  duration: 'DurationParameter',
  size: 'SizeParameter',
  boolean: 'BooleanParameter',
  choice: 'ChoiceParameter',
  string: 'StringParameter',
};

function typeOf(spec: ParameterSpec): string {
  if (spec.kind !== 'choice') return TYPES[spec.kind];
  return `ChoiceParameter<${spec.choices.map((c) => JSON.stringify(c).replace(/"/g, "'")).join(' | ')}>`;
}

export async function registrySource(): Promise<string> {
  const entries: string[] = [];
  const used = new Set<string>();
  for (const name of builtInScenarios()) {
    const { scenario } = await loadScenario(name);
    const lines = Object.entries(scenario.parameters as Record<string, ParameterSpec>).map(([parameter, spec]) => {
      used.add(TYPES[spec.kind]);
      return `    ${parameter}: ${typeOf(spec)};`;
    });
    const key = /^[a-z]\w*$/i.test(name) ? name : `'${name}'`;
    entries.push(`  ${key}: {\n${lines.join('\n')}\n  };`);
  }
  return [
    '/**',
    ' * The parameters of each built-in scenario, by name, as types: run({ scenario: \'echo\', params })',
    ' * checks `params` against them. Generated from scenarios/*.ts by test/built-in-registry.ts, and',
    ' * test/built-in-registry.test.ts fails when this file differs from what the scenarios declare.',
    ' */',
    `import type { ${[...used].sort().join(', ')} } from './declaration-types.js';`,
    '',
    'export interface BuiltInScenarioParameters {',
    ...entries,
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(await registrySource());
