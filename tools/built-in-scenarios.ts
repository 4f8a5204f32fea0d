/**
 * The generator of src/parent/results/built-in-scenarios.ts: its text, made from the built-in scenarios'
 * own declarations: each one's parameters (kind, and a choice's words) and the
 * keys of the metrics its cells carry, as a Scenario type, which is all the
 * library's types need to check `params` and type `metrics` of a built-in run
 * by name. The file is generated because src/ must not import scenarios/ (they
 * import the kit, so that would be a loop). test/built-in-scenarios.test.ts
 * fails when the file differs; to regenerate it:
 *
 *   npm run generate
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtInScenarios, loadScenario } from '../src/child/scenario-loader.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import type { MetricInfo, ParameterSpec } from '../src/shared/types/declaration-types.js';
import { meaningOf } from './metric-key-docs.js';

const TYPES: Record<ParameterSpec['kind'], string> = {
  integer: 'IntegerParameter',
  number: 'NumberParameter',
  duration: 'DurationParameter',
  size: 'SizeParameter',
  boolean: 'BooleanParameter',
  choice: 'ChoiceParameter',
  string: 'StringParameter',
  stages: 'StagesParameter',
};

function typeOf(spec: ParameterSpec): string {
  if (spec.kind !== 'choice') return TYPES[spec.kind];
  return `ChoiceParameter<${spec.choices.map((c) => JSON.stringify(c).replace(/"/g, "'")).join(' | ')}>`;
}

/** A doc comment's text on one line, unable to end the comment early. */
const commentText = (text: string): string => text.replace(/\s+/g, ' ').replace(/\*\//g, '*\\/').trim();

const propertyName = (name: string): string => (/^[a-z_$][\w$]*$/i.test(name) ? name : `'${name}'`);

/** What an editor shows on `cell.metrics.<key>`: what it measures (as the scenario's page words it) and its unit. */
function metricComment(metric: MetricInfo): string {
  return commentText(`${meaningOf(metric)} (${metric.unit})`);
}

export async function registrySource(): Promise<string> {
  const entries: string[] = [];
  const used = new Set<string>();
  for (const name of builtInScenarios()) {
    const { scenario } = await loadScenario(name);
    const parameters = Object.entries(scenario.parameters as Record<string, ParameterSpec>).map(([parameter, spec]) => {
      used.add(TYPES[spec.kind]);
      return `      /** ${commentText(spec.description)} */ ${propertyName(parameter)}: ${typeOf(spec)};`;
    });
    // The keys a cell's `metrics` carries: those the result's declarations list (src/parent/engine/scenario-info.ts).
    const metrics = Object.entries(scenarioInfo(scenario).metrics).map(
      ([key, metric]) => `      /** ${metricComment(metric)} */ ${propertyName(key)}: MetricDefinition;`,
    );
    entries.push(
      `  ${propertyName(name)}: Scenario<\n    {\n${parameters.join('\n')}\n    },\n    {\n${metrics.join('\n')}\n    }\n  >;`,
    );
  }
  return [
    '/**',
    " * The built-in scenarios, by name, as types: each one's parameters and the metrics its cells carry.",
    " * run('echo', { params }) checks `params` against them, and types the cells' `metrics` and `params`",
    ' * (src/parent/results/typed-results.ts). Generated from scenarios/*.ts by tools/built-in-scenarios.ts (src/ must',
    ' * not import scenarios/; `npm run generate` writes it), and test/built-in-scenarios.test.ts fails when this file',
    ' * differs from what the scenarios declare.',
    ' */',
    `import type { ${[...used].sort().join(', ')} } from '../../shared/types/declaration-types.js';`,
    "import type { MetricDefinition, Scenario } from '../../shared/types/scenario-types.js';",
    '',
    'export interface BuiltInScenarios {',
    ...entries,
    '}',
    '',
    "/** The name of a built-in scenario: run('echo') or `wsbench run echo`. */",
    'export type BuiltInScenarioName = keyof BuiltInScenarios;',
    '',
  ].join('\n');
}

/** Where the generated file lives, from dist/tools/ (the build) back to the source tree. */
export const REGISTRY_FILE = fileURLToPath(new URL('../../src/parent/results/built-in-scenarios.ts', import.meta.url));

// `--write` writes the file; without it the text goes to standard output.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await registrySource();
  if (process.argv.includes('--write')) writeFileSync(REGISTRY_FILE, text);
  else process.stdout.write(text);
}
