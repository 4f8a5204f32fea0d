/** `wsbench list`: the runtimes and stacks as they load on this machine, and the scenarios with their parameters. */
import type { Command } from 'commander';
import { subcommand } from './subcommand.js';
import { addFlags } from './flags/index.js';
import { argsWithPlanOf } from './plan/apply-plan.js';
import { probeStacks } from '../engine/environment.js';
import { builtInScenarios, loadScenario } from '../../child/scenario-loader.js';
import { scenarioInfo } from '../engine/scenario-info.js';
import type { RuntimeInfo, ScenarioInfo, StackInfo } from '../../shared/types/result-types.js';
import { locateRuntimes } from '../../child/runtimes/locate.js';
import { formatValue } from '../../shared/parsing/parameter-values.js';
import { toKebab } from './parameter-flags.js';

export async function listFromArgs(args: string[]): Promise<number> {
  const command = listCommand();
  command.parse(await argsWithPlanOf('list', args, listCommand), { from: 'user' });
  process.stdout.write(await renderList(command.opts<{ json?: boolean }>().json === true));
  return 0;
}

function listCommand(): Command {
  const command = subcommand('wsbench list');
  addFlags(command, 'list');
  return command;
}

async function renderList(asJson: boolean): Promise<string> {
  const stacks = await probeStacks();
  const runtimes = locateRuntimes();
  const loaded = await Promise.all(builtInScenarios().map(async (name) => (await loadScenario(name)).scenario));
  const scenarios = loaded.map((s) => ({ info: scenarioInfo(s), presets: Object.keys(s.presets ?? {}) }));
  if (asJson)
    return `${JSON.stringify({ runtimes, stacks, scenarios: scenarios.map(({ info, presets }) => ({ ...info, presets })) }, null, 2)}\n`;
  const lines = ['Runtimes (WSBENCH_BUN / WSBENCH_DENO name another build):', ...runtimeLines(runtimes), ''];
  lines.push('Stacks (as they load on this machine):');
  const stackWidth = Math.max(9, ...stacks.map((stack) => stack.name.length));
  for (const stack of stacks) {
    lines.push(
      `  ${stack.role.padEnd(6)} ${stack.name.padEnd(stackWidth)} ${stack.protocol.padEnd(9)} ${(stack.runtime ?? 'node').padEnd(5)} ${describeStack(stack)}`,
    );
  }
  lines.push('', 'Scenarios (wsbench run <scenario> [--param value]; durations need a unit, bare sizes are bytes):');
  const specs = scenarios.flatMap(({ info }) => Object.entries(info.parameters));
  const nameWidth = Math.max(...specs.map(([name]) => toKebab(name).length));
  const defaultWidth = Math.max(...specs.map(([, p]) => formatValue(p.kind, p.default).length));
  for (const { info, presets } of scenarios) lines.push(...scenarioLines(info, presets, nameWidth, defaultWidth));
  return `${lines.join('\n')}\n`;
}

function scenarioLines(info: ScenarioInfo, presets: string[], nameWidth: number, defaultWidth: number): string[] {
  const lines = [`  ${info.name}: ${info.description}`];
  for (const [name, p] of Object.entries(info.parameters)) {
    const choices = p.choices ? ` (${p.choices.join(', ')})` : '';
    lines.push(
      `    --${toKebab(name).padEnd(nameWidth)}  ${formatValue(p.kind, p.default).padEnd(defaultWidth)}  ${p.description}${choices}${p.sweepable ? ' (comma list sweeps)' : ''}`,
    );
  }
  if (presets.length) lines.push(`    presets: ${presets.join(', ')}`);
  return lines;
}

function runtimeLines(runtimes: RuntimeInfo[]): string[] {
  const found = runtimes.filter((r) => r.available);
  const versionWidth = Math.max(0, ...found.map((r) => (r.version ?? '-').length));
  const sourceWidth = Math.max(0, ...found.map((r) => r.source.length));
  return runtimes.map((r) =>
    r.available
      ? `  ${r.name.padEnd(5)} ${(r.version ?? '-').padEnd(versionWidth)}  ${r.source.padEnd(sourceWidth)}  ${r.path}`
      : `  ${r.name.padEnd(5)} UNAVAILABLE: ${r.reason}`,
  );
}

function describeStack(stack: StackInfo): string {
  const a = stack.availability;
  if (!a.available) return `${a.version ?? '-'}  UNAVAILABLE: ${a.reason}`;
  const build = a.build
    ? `  (${a.build.packageName}, ${a.build.native ? `native ${a.build.binary ?? ''}` : 'JavaScript fallback'})`
    : '';
  return `${a.version}  ok${build}`;
}
