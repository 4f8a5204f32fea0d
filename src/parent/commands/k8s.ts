/**
 * `wsbench k8s --shards N --image IMAGE [options] -- <run args...>`: prints a
 * Kubernetes manifest (YAML) that runs `wsbench run <run args>` as N shards of
 * one run, an Indexed Job plus a headless Service for the barrier. It talks to
 * no cluster: `kubectl apply -f` is the user's step (docs/kubernetes.md).
 */
import { CommanderError, type Command } from 'commander';
import { commanderLine, subcommand } from './subcommand.js';
import { UsageError } from '../../shared/types/errors.js';
import {
  INDEX_VARIABLE,
  k8sManifest,
  manifestYaml,
  podRunArgs,
  randomRunId,
  type K8sManifestOptions,
} from '../shard/k8s-manifest.js';
import { planFromRunArgs, runWordsWithPlan } from './run-args.js';
import { addFlags, readFlag } from './flags/index.js';
import { argsWithPlan } from './plan/apply-plan.js';
import { planIn, shownValue } from './plan/read-plan.js';
import { planForOtherMachines } from '../../shared/open-file-limit.js';

interface K8sFlags {
  shards: string;
  image: string;
  name: string;
  namespace?: string;
  cpu: string;
  memory: string;
  barrierPort: string;
  runId?: string;
}

function k8sCommand(): Command {
  const command = subcommand('wsbench k8s')
    .usage('--shards N --image IMAGE [options] -- <run args...>')
    .description(
      'Print a Kubernetes Indexed Job (and headless Service) that runs `wsbench run <run args>` as N shards of one run.',
    );
  addFlags(command, 'k8s');
  return command;
}

export async function k8sFromArgs(args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const givenRunArgs = split === -1 ? [] : args.slice(split + 1);
  // A plan's `run` section is a run's plan: read against run's flags and the scenario's, as `run --config` would.
  const source = await planIn(own);
  const { run: runSection, ...values } = source?.values ?? {};
  const words = source
    ? argsWithPlan({ ...source, values }, { command: 'k8s', build: k8sCommand, helpCommand: 'wsbench k8s --help' }, own)
        .args
    : own;
  const command = k8sCommand();
  try {
    command.parse(words, { from: 'user' });
  } catch (error) {
    // Run flags given without "--" land here as unknown options or arguments.
    if (
      split === -1 &&
      error instanceof CommanderError &&
      ['commander.unknownOption', 'commander.excessArguments'].includes(error.code)
    ) {
      throw new UsageError(`${commanderLine(error.message)} (the run arguments go after "--")`);
    }
    throw error;
  }
  const runArgs =
    source && runSection !== undefined
      ? await runWordsWithPlan(givenRunArgs, {
          path: source.path,
          values: runPlanOf(runSection, source.path),
          prefix: 'run.',
          positions: source.positions,
        })
      : givenRunArgs;
  const flags = command.opts<K8sFlags>();
  const shards = readFlag<number>(flags, '--shards')!;
  const barrierPort = readFlag<number>(flags, '--barrier-port')!;
  const runId = flags.runId ?? randomRunId(flags.name);
  const options: K8sManifestOptions = {
    name: flags.name,
    ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    image: flags.image,
    shards,
    runId,
    cpu: flags.cpu,
    memory: flags.memory,
    barrierPort,
    runArgs,
  };
  const manifest = k8sManifest(options);
  // Every pod would refuse what `run` refuses: check the arguments shard 0 gets, with `run`'s own parser, before printing.
  // The pods' open-file limit and port range are theirs, not this machine's: those checks stay with the pods.
  planForOtherMachines();
  await planFromRunArgs(podRunArgs(options), { [INDEX_VARIABLE]: '0' });
  const ns = flags.namespace !== undefined ? ` -n ${flags.namespace}` : '';
  const header = [
    `wsbench k8s: ${shards} shard${shards > 1 ? 's' : ''} of run ${runId} (docs/kubernetes.md)`,
    `kubectl apply${ns} -f job.yaml`,
    `once the Job has finished: kubectl logs${ns} -l job-name=${flags.name} --tail=-1 > shards.log`,
    'wsbench merge shards.log --out merged.json',
  ];
  process.stdout.write(await manifestYaml(manifest, header));
  process.stderr.write(
    `run id ${runId}${flags.runId === undefined ? ' (generated; --run-id sets it)' : ''}: ${shards} shard${shards > 1 ? 's' : ''}, Job and Service "${flags.name}"\n`,
  );
  return 0;
}

/** The plan's `run` section: a mapping, as a plan is. */
function runPlanOf(section: unknown, path: string): Record<string, unknown> {
  if (section !== null && typeof section === 'object' && !Array.isArray(section))
    return section as Record<string, unknown>;
  throw new UsageError(
    `${path}: run: the run every pod makes, as keys and values (scenario, run's flags, the scenario's parameters), not ${shownValue(section)}`,
  );
}
