/**
 * `wsbench k8s`: the shards of one run as a Kubernetes Indexed Job, plus the
 * headless Service that gives shard 0's barrier a DNS name. Plain objects
 * shaped like the batch/v1 Job and v1 Service schemas (the test assigns them to
 * @kubernetes/client-node's V1Job and V1Service types, so users need no client).
 */
import { randomInt } from 'node:crypto';
import { ParameterError, UsageError } from '../../shared/types/errors.js';

/** Indexed Jobs allow far more; a run needing more shards than this is more likely a typo. */
export const MAX_SHARDS = 1000;
export const DEFAULT_BARRIER_PORT = 7070;
/** The Job controller sets this in every pod of an Indexed Job: the pod's index, 0..N-1. */
export const INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';
/**
 * Set by `k8s` itself in every pod; given again after `--` they would contradict
 * it. `--json` would print a multi-line result that a log cannot hold one per
 * line, `--format` another format beside the pod's JSON line (or a file the pod
 * takes with it), and `--server-cmd` / `--start-at` mean a server or a start per pod.
 */
const FLAGS_K8S_SETS = [
  '--shard',
  '--run-id',
  '--barrier',
  '--barrier-listen',
  '--json-line',
  '--json',
  '--format',
  '--server-cmd',
  '--start-at',
];

/** What k8sManifest() takes: the shard count, the image, the run's arguments and the barrier. */
export interface K8sManifestOptions {
  /** Names the Job, the Service and (with the index) each pod's hostname: a DNS-1035 label. */
  name: string;
  /** Omitted: kubectl's current namespace. */
  namespace?: string;
  image: string;
  shards: number;
  /** Shared by every shard; `merge` refuses shards of different runs. */
  runId: string;
  /** Kubernetes quantities; requests equal limits, so the pods get the Guaranteed QoS class. */
  cpu: string;
  memory: string;
  barrierPort: number;
  /** What follows `wsbench run` in every pod: scenario, its parameters, --target, --clients, --client-procs... */
  runArgs: string[];
}

type Labels = Record<string, string>;

export interface ShardContainer {
  name: string;
  image: string;
  args: string[];
  ports: Array<{ name: string; containerPort: number; protocol: 'TCP' }>;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  terminationMessagePolicy: 'FallbackToLogsOnError';
}

export interface IndexedJob {
  apiVersion: 'batch/v1';
  kind: 'Job';
  metadata: { name: string; namespace?: string; labels: Labels };
  spec: {
    completionMode: 'Indexed';
    completions: number;
    parallelism: number;
    backoffLimitPerIndex: 0;
    template: {
      metadata: { labels: Labels };
      spec: {
        subdomain: string;
        restartPolicy: 'Never';
        securityContext: { sysctls: Array<{ name: string; value: string }> };
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: Array<{
              weight: number;
              podAffinityTerm: { labelSelector: { matchLabels: Labels }; topologyKey: string };
            }>;
          };
        };
        containers: [ShardContainer];
      };
    };
  };
}

export interface HeadlessService {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: { name: string; namespace?: string; labels: Labels };
  spec: {
    clusterIP: 'None';
    selector: Labels;
    publishNotReadyAddresses: true;
    ports: Array<{ name: string; port: number; targetPort: number; protocol: 'TCP' }>;
  };
}

/**
 * The Kubernetes objects of a sharded run: an Indexed Job, one pod per shard, and the headless Service its barrier
 * needs.
 */
export interface K8sManifest {
  runId: string;
  /** In the order to apply: the Service first, so the barrier's name exists when the pods look it up. */
  service: HeadlessService;
  job: IndexedJob;
}

/** The Kubernetes objects that run a sharded run, one pod per shard (`wsbench shard manifest`). */
export function k8sManifest(options: K8sManifestOptions): K8sManifest {
  checkOptions(options);
  const { name, shards, barrierPort: port } = options;
  // Fresh objects wherever one is used twice: a caller may edit one place, and YAML gets no aliases.
  const labels = (): Labels => ({ 'app.kubernetes.io/name': 'wsbench', 'app.kubernetes.io/instance': name });
  const metadata = () => ({
    name,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    labels: labels(),
  });
  const resources = () => ({ cpu: options.cpu, memory: options.memory });
  const args = ['run', ...podRunArgs(options).map(literalArg)];
  const container: ShardContainer = {
    name: 'wsbench',
    image: options.image,
    args,
    ports: [{ name: 'barrier', containerPort: port, protocol: 'TCP' }],
    resources: { requests: resources(), limits: resources() },
    // A failed shard's last log lines show in `kubectl describe pod`.
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
  const job: IndexedJob = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(),
    spec: {
      completionMode: 'Indexed',
      completions: shards,
      parallelism: shards, // every shard at once: they wait for each other at the barrier
      // A failed shard is failed for good and the others run on: a retry would miss the common
      // window (and a retried shard 0 would serve a barrier nobody joins), and `merge` names it
      // missing. A Job-wide backoffLimit of 0 would instead stop every other shard mid-run.
      backoffLimitPerIndex: 0,
      template: {
        metadata: { labels: labels() },
        spec: {
          subdomain: name,
          restartPolicy: 'Never',
          // Ephemeral ports are what one load machine runs out of first: a pod may use 10000-65535
          // (a namespaced, "safe" sysctl that clusters allow by default).
          securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '10000 65535' }] },
          affinity: {
            podAntiAffinity: {
              // Preferred, not required: a small cluster still runs every shard, sharing nodes.
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: { labelSelector: { matchLabels: labels() }, topologyKey: 'kubernetes.io/hostname' },
                },
              ],
            },
          },
          containers: [container],
        },
      },
    },
  };
  const service: HeadlessService = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(),
    spec: {
      clusterIP: 'None',
      selector: labels(),
      // Shard 0's name resolves as soon as it has an address: the pods have no readiness probe to wait for.
      publishNotReadyAddresses: true,
      ports: [{ name: 'barrier', port, targetPort: port, protocol: 'TCP' }],
    },
  };
  return { runId: options.runId, service, job };
}

/** What follows `wsbench run` in every pod, as the pod reads it (before Kubernetes' `$` escaping). */
export function podRunArgs(options: K8sManifestOptions): string[] {
  const { name, shards, barrierPort: port } = options;
  return [
    ...options.runArgs,
    '--shard',
    `env:${INDEX_VARIABLE}/${shards}`,
    '--run-id',
    options.runId,
    // An Indexed Job's pod with subdomain S is NAME-INDEX.S in DNS: shard 0 is NAME-0.NAME.
    '--barrier',
    `http://${name}-0.${name}:${port}`,
    '--barrier-listen',
    `0.0.0.0:${port}`,
    '--json-line',
  ];
}

/** A run id for `name`: the name and a random suffix, so two runs of one manifest name never merge. */
export function randomRunId(name: string): string {
  return `${name}-${randomInt(36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

/**
 * The manifest as YAML, Service first. Written as YAML 1.1, which quotes every
 * string that Kubernetes' YAML 1.1 parser would read as something else
 * (`off`, `yes`, `012`, `1:20`): an argument must stay a string.
 */
export async function manifestYaml(manifest: K8sManifest, header: string[] = []): Promise<string> {
  const { Document } = await import('yaml');
  return [manifest.service, manifest.job]
    .map((object, i) => {
      const doc = new Document(object, { version: '1.1', aliasDuplicateObjects: false });
      if (i === 0 && header.length) doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
      return doc.toString({ lineWidth: 0 });
    })
    .join('---\n');
}

/** Kubernetes expands `$(VAR)` in container args and turns `$$` into `$`: doubling every `$` passes the text unchanged. */
function literalArg(arg: string): string {
  return arg.replaceAll('$', '$$$$');
}

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const CPU_QUANTITY = /^(\d+(\.\d+)?|\d+m)$/;
const MEMORY_QUANTITY = /^(\d+(\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkOptions(o: K8sManifestOptions): void {
  if (!Number.isInteger(o.shards) || o.shards < 1 || o.shards > MAX_SHARDS) {
    throw new ParameterError('shards', `${o.shards} is not a whole number from 1 to ${MAX_SHARDS}`);
  }
  // Each pod's hostname is NAME-INDEX, itself a DNS label of at most 63 characters.
  const longest = 63 - `-${o.shards - 1}`.length;
  if (!DNS_1035_LABEL.test(o.name) || o.name.length > longest) {
    throw new ParameterError(
      'name',
      `"${o.name}" is not a DNS label (lowercase letters, digits and "-", starting with a letter, ending with a letter or digit, at most ${longest} characters with ${o.shards} shards): it names the Job, the Service and the pods' hostnames`,
    );
  }
  if (o.namespace !== undefined && (!DNS_1123_LABEL.test(o.namespace) || o.namespace.length > 63)) {
    throw new ParameterError(
      'namespace',
      `"${o.namespace}" is not a DNS label (lowercase letters, digits and "-", at most 63 characters)`,
    );
  }
  if (o.image.trim() === '' || /\s/.test(o.image))
    throw new ParameterError('image', `"${o.image}" is not an image reference such as ghcr.io/you/wsbench:0.1.0`);
  if (!RUN_ID.test(o.runId))
    throw new ParameterError(
      'runId',
      `"${o.runId}" is not a run id (letters, digits, ".", "_" and "-", at most 128 characters)`,
    );
  if (!CPU_QUANTITY.test(o.cpu) || Number.parseFloat(o.cpu) <= 0)
    throw new ParameterError('cpu', `"${o.cpu}" is not a CPU quantity such as 2, 1.5 or 500m`);
  if (/^\d+(\.\d+)?m$/.test(o.memory))
    throw new ParameterError(
      'memory',
      `"${o.memory}" means milli-bytes to Kubernetes: write ${o.memory.slice(0, -1)}Mi`,
    );
  if (!MEMORY_QUANTITY.test(o.memory) || Number.parseFloat(o.memory) <= 0)
    throw new ParameterError('memory', `"${o.memory}" is not a memory quantity such as 2Gi or 512Mi`);
  if (!Number.isInteger(o.barrierPort) || o.barrierPort < 1 || o.barrierPort > 65535) {
    throw new ParameterError('barrierPort', `${o.barrierPort} is not a port from 1 to 65535`);
  }
  checkRunArgs(o.runArgs);
}

/** What the manifest itself needs of the run arguments; `wsbench k8s` then reads them with `run`'s own parser. */
function checkRunArgs(args: string[]): void {
  const example = 'wsbench k8s --shards 4 --image IMAGE -- fanout --connections 40000 --target ws://server.bench:8080/';
  if (args.length === 0) throw new UsageError(`k8s: give the run arguments after "--", e.g. ${example}`);
  for (const flag of FLAGS_K8S_SETS) {
    if (args.some((a) => a === flag || a.startsWith(`${flag}=`))) {
      throw new UsageError(`k8s: the run arguments must not hold ${flag}: ${reasonFor(flag)}`);
    }
  }
  if (!args.some((a) => a === '--target' || a.startsWith('--target='))) {
    throw new UsageError(
      `k8s: the run arguments need --target URL, the server every shard loads (it runs elsewhere), e.g. ${example}`,
    );
  }
}

function reasonFor(flag: string): string {
  if (flag === '--json') return 'each pod prints its result as one line (--json-line) for `wsbench merge`';
  if (flag === '--format')
    return 'each pod prints its result as one line (--json-line); give --format to `wsbench merge` instead';
  if (flag === '--server-cmd') return 'it would start one server per pod; run the server elsewhere and give --target';
  if (flag === '--start-at') return "the pods line up on shard 0's barrier";
  return 'wsbench k8s sets it in every pod';
}
