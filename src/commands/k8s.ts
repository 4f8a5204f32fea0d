/**
 * `wsbench k8s --shards N --image IMAGE [options] -- <run args...>`: prints a
 * Kubernetes manifest (YAML) that runs `wsbench run <run args>` as N shards of
 * one run, an Indexed Job plus a headless Service for the barrier. It talks to
 * no cluster: `kubectl apply -f` is the user's step (docs/kubernetes.md).
 */
import { CommanderError } from 'commander';
import { subcommand } from './subcommand.js';
import { UsageError } from '../errors.js';
import { DEFAULT_BARRIER_PORT, INDEX_VARIABLE, MAX_SHARDS, k8sManifest, manifestYaml, podRunArgs, randomRunId, type K8sManifestOptions } from '../shard/k8s-manifest.js';
import { planFromRunArgs } from './run-args.js';
import { planForOtherMachines } from '../open-file-limit.js';

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

export async function k8sFromArgs(args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const runArgs = split === -1 ? [] : args.slice(split + 1);
  const command = subcommand('wsbench k8s')
    .usage('--shards N --image IMAGE [options] -- <run args...>')
    .description('Print a Kubernetes Indexed Job (and headless Service) that runs `wsbench run <run args>` as N shards of one run.')
    .requiredOption('--shards <n>', `number of shards, one pod each (1 to ${MAX_SHARDS})`)
    .requiredOption('--image <image>', 'container image holding wsbench, built from the Dockerfile of a wsbench checkout (docs/kubernetes.md)')
    .option('--name <name>', 'name of the Job and the Service; pods are NAME-0, NAME-1, ...', 'wsbench')
    .option('--namespace <ns>', 'namespace (default: kubectl\'s current one)')
    .option('--cpu <quantity>', 'CPU of each pod, requested and limited alike', '2')
    .option('--memory <quantity>', 'memory of each pod, requested and limited alike', '2Gi')
    .option('--barrier-port <port>', 'port of shard 0\'s start barrier', String(DEFAULT_BARRIER_PORT))
    .option('--run-id <id>', 'run id shared by the shards (default: NAME and a random suffix)');
  try {
    command.parse(own, { from: 'user' });
  } catch (error) {
    // Run flags given without "--" land here as unknown options or arguments.
    if (split === -1 && error instanceof CommanderError && ['commander.unknownOption', 'commander.excessArguments'].includes(error.code)) {
      throw new UsageError(`${error.message.replace(/^error: /, '').split('\n')[0]} (the run arguments go after "--")`);
    }
    throw error;
  }
  const flags = command.opts<K8sFlags>();
  const shards = wholeNumber('--shards', flags.shards, `a whole number from 1 to ${MAX_SHARDS}`);
  const barrierPort = wholeNumber('--barrier-port', flags.barrierPort, 'a port from 1 to 65535');
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
  process.stderr.write(`run id ${runId}${flags.runId === undefined ? ' (generated; --run-id sets it)' : ''}: ${shards} shard${shards > 1 ? 's' : ''}, Job and Service "${flags.name}"\n`);
  return 0;
}

/** Digits only: the library checks the range and names the flag. */
function wholeNumber(flag: string, text: string, what: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not ${what}`);
  return Number(text);
}
