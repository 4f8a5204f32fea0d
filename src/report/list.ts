/** `wsbench list`: the stacks as they load on this machine, and the scenarios with their parameters. */
import { probeStacks } from '../core/environment.js';
import { builtInScenarios, loadScenario } from '../core/scenario-loader.js';
import { toKebab } from '../core/params.js';
import type { StackInfo } from '../result-types.js';
import type { ParameterSpec } from '../types.js';

export async function renderList(asJson: boolean): Promise<string> {
  const stacks = await probeStacks();
  const scenarios = await Promise.all(builtInScenarios().map(async (name) => (await loadScenario(name)).scenario));
  if (asJson) {
    const data = {
      stacks,
      scenarios: scenarios.map((s) => ({ name: s.name, description: s.description, parameters: s.parameters, presets: s.presets ?? {} })),
    };
    return JSON.stringify(data, null, 2) + '\n';
  }
  const lines = ['Stacks (as they load on this machine):'];
  for (const stack of stacks) lines.push(`  ${stack.role.padEnd(6)} ${stack.name.padEnd(9)} ${stack.protocol.padEnd(9)} ${describeStack(stack)}`);
  lines.push('', 'Scenarios (wsbench run <scenario> [--param value]):');
  const specs = scenarios.flatMap((s) => Object.entries(s.parameters));
  const nameWidth = Math.max(...specs.map(([name]) => toKebab(name).length));
  const defaultWidth = Math.max(...specs.map(([, spec]) => formatDefault(spec).length));
  for (const scenario of scenarios) {
    lines.push(`  ${scenario.name}: ${scenario.description}`);
    for (const [name, spec] of Object.entries(scenario.parameters)) {
      lines.push(`    --${toKebab(name).padEnd(nameWidth)}  ${formatDefault(spec).padEnd(defaultWidth)}  ${spec.description}${spec.sweepable ? ' (comma list sweeps)' : ''}`);
    }
    const presets = Object.keys(scenario.presets ?? {});
    if (presets.length) lines.push(`    presets: ${presets.join(', ')}`);
  }
  return lines.join('\n') + '\n';
}

function describeStack(stack: StackInfo): string {
  const a = stack.availability;
  if (!a.available) return `${a.version ?? '-'}  UNAVAILABLE: ${a.reason}`;
  const build = a.build ? `  (${a.build.packageName}, ${a.build.native ? `native ${a.build.binary ?? ''}` : 'JavaScript fallback'})` : '';
  return `${a.version}  ok${build}`;
}

function formatDefault(spec: ParameterSpec): string {
  if (spec.kind === 'duration') return `${spec.default}ms`;
  if (spec.kind === 'size') return `${spec.default}B`;
  return String(spec.default);
}
