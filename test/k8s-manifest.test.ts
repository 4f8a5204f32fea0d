/**
 * `wsbench k8s`: the Indexed Job and headless Service it prints. No cluster is
 * reachable here, so the shape is checked at compile time against the official
 * client's V1Job and V1Service types (type-only imports: nothing of the client
 * loads at run time) and the values at run time; the CLI is run for real.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { V1Job, V1Service } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import {
  k8sManifest,
  manifestYaml,
  type HeadlessService,
  type IndexedJob,
  type K8sManifestOptions,
} from '../src/parent/shard/k8s-manifest.js';
import { REPO_ROOT, runCli } from './support.js';
import { binNodeFlags } from '../bench/bin-node-flags.js';

/**
 * `never` when every field of M exists, at the same place, in the schema type T;
 * else the first unknown field's name. (Assigning M to T alone would let a
 * misspelt optional field through: TypeScript checks excess fields only on literals.)
 */
type UnknownFields<M, T> = M extends readonly (infer E)[]
  ? T extends readonly (infer F)[]
    ? UnknownFields<E, F>
    : 'a list where the schema has none'
  : M extends object
    ? {
        [K in keyof M]-?: K extends keyof T
          ? UnknownFields<NonNullable<M[K]>, NonNullable<T[K]>>
          : `unknown field: ${K & string}`;
      }[keyof M]
    : never;
function schemaHasEveryField<M, T>(ok: [UnknownFields<M, T>] extends [never] ? true : UnknownFields<M, T>): void {
  assert.equal(ok, true);
}

const RUN_ARGS = ['fanout', '--connections', '40000', '--target', 'ws://server.bench:8080/'];
const OPTIONS: K8sManifestOptions = {
  name: 'bench',
  image: 'registry.example/wsbench:0.1.0',
  shards: 4,
  runId: 'bench-run1',
  cpu: '2',
  memory: '2Gi',
  barrierPort: 7070,
  runArgs: RUN_ARGS,
};

test('the Job and Service fit the Kubernetes schemas: every field known, every required field there, every type right', () => {
  const { job, service } = k8sManifest(OPTIONS);
  const asJob: V1Job = job; // compile time: types of shared fields, and required ones (template, containers, name)
  const asService: V1Service = service;
  schemaHasEveryField<IndexedJob, V1Job>(true);
  schemaHasEveryField<HeadlessService, V1Service>(true);
  // @ts-expect-error the check catches a misspelt field (proof that it checks at all)
  schemaHasEveryField<{ spec: { completionsMode: string } }, V1Job>(true);
  assert.equal(asJob.apiVersion, 'batch/v1');
  assert.equal(asService.apiVersion, 'v1');
});

test('4 shards: an Indexed Job of 4 pods at once, each told its index by JOB_COMPLETION_INDEX and the barrier at pod 0', () => {
  const { job, service, runId } = k8sManifest(OPTIONS);
  const spec = job.spec;
  assert.equal(spec.completionMode, 'Indexed');
  assert.equal(spec.completions, 4);
  assert.equal(spec.parallelism, 4);
  assert.equal(spec.backoffLimitPerIndex, 0, 'a failed shard is not re-run');
  assert.equal(spec.template.spec.restartPolicy, 'Never');
  assert.equal(spec.template.spec.subdomain, service.metadata.name);
  const [container] = spec.template.spec.containers;
  assert.deepEqual(container.args, [
    'run',
    ...RUN_ARGS,
    '--shard',
    'env:JOB_COMPLETION_INDEX/4',
    '--run-id',
    'bench-run1',
    '--barrier',
    'http://bench-0.bench:7070',
    '--barrier-listen',
    '0.0.0.0:7070',
    '--json-line',
  ]);
  assert.equal(runId, 'bench-run1');
  assert.equal(container.image, OPTIONS.image);
  assert.deepEqual(container.resources.requests, { cpu: '2', memory: '2Gi' });
  assert.deepEqual(container.resources.limits, container.resources.requests, 'Guaranteed QoS: requests equal limits');
  assert.deepEqual(container.ports, [{ name: 'barrier', containerPort: 7070, protocol: 'TCP' }]);
  const [term] = spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
  assert.equal(term?.podAffinityTerm.topologyKey, 'kubernetes.io/hostname');
  assert.deepEqual(
    term?.podAffinityTerm.labelSelector.matchLabels,
    spec.template.metadata.labels,
    "shards avoid each other's nodes",
  );
});

test("the Service is headless and selects exactly the Job's pods, on the barrier port", () => {
  const { job, service } = k8sManifest({ ...OPTIONS, namespace: 'load' });
  assert.equal(service.spec.clusterIP, 'None');
  assert.equal(service.metadata.name, 'bench');
  const podLabels = job.spec.template.metadata.labels;
  assert.ok(Object.keys(service.spec.selector).length > 0);
  for (const [key, value] of Object.entries(service.spec.selector))
    assert.equal(podLabels[key], value, `selector ${key}`);
  assert.equal(service.spec.publishNotReadyAddresses, true);
  assert.deepEqual(service.spec.ports, [{ name: 'barrier', port: 7070, targetPort: 7070, protocol: 'TCP' }]);
  assert.equal(service.metadata.namespace, 'load');
  assert.equal(job.metadata.namespace, 'load');
});

test('run arguments pass literally: "$" is escaped from Kubernetes\' $(VAR) expansion', () => {
  const { job } = k8sManifest({ ...OPTIONS, runArgs: [...RUN_ARGS, '--payload', '$(HOME)$x'] });
  assert.ok(job.spec.template.spec.containers[0].args.includes('$$(HOME)$$x'));
});

test('the YAML reads back as the same two objects, and words YAML 1.1 would turn into booleans or numbers stay strings', async () => {
  const manifest = k8sManifest({
    ...OPTIONS,
    runArgs: [...RUN_ARGS, '--deflate', 'off', '--label', '012', '--at', '1:20'],
  });
  const text = await manifestYaml(manifest, ['a header line']);
  assert.match(text, /^# a header line\n/);
  assert.doesNotMatch(text, /[&*]a\d/, 'no YAML anchors or aliases');
  // Kubernetes reads YAML 1.1: parse as 1.1 too.
  const docs = parseAllDocuments(text, { version: '1.1' });
  assert.ok(Array.isArray(docs));
  assert.deepEqual(
    docs.map((d) => d.toJS() as unknown),
    [manifest.service, manifest.job],
  );
});

test('the CLI prints the manifest as YAML and names the run id it generated on stderr', async () => {
  const out = await runCli(
    [
      'k8s',
      '--shards',
      '4',
      '--image',
      OPTIONS.image,
      '--name',
      'bench',
      '--cpu',
      '1500m',
      '--memory',
      '1Gi',
      '--',
      ...RUN_ARGS,
    ],
    { timeoutMs: 60_000 },
  );
  assert.equal(out.code, 0, out.stderr);
  const docs = parseAllDocuments(out.stdout, { version: '1.1' });
  assert.ok(Array.isArray(docs));
  const [service, job] = docs.map((d) => d.toJS() as unknown) as [HeadlessService, IndexedJob];
  assert.equal(service.kind, 'Service');
  assert.equal(job.kind, 'Job');
  const args = job.spec.template.spec.containers[0].args;
  const runId = args[args.indexOf('--run-id') + 1]!;
  assert.match(runId, /^bench-[0-9a-z]{6}$/);
  assert.match(out.stderr, new RegExp(`^run id ${runId} \\(generated`));
  assert.deepEqual(job.spec.template.spec.containers[0].resources.limits, { cpu: '1500m', memory: '1Gi' });
  assert.match(out.stdout, /^# once the Job has finished: kubectl logs -l job-name=bench --tail=-1 > shards.log$/m);
});

const BAD_INPUTS: Array<[string, string[], string]> = [
  ['no --image', ['--shards', '4', '--', ...RUN_ARGS], "wsbench: required option '--image <image>' not specified"],
  ['no --shards', ['--image', 'x', '--', ...RUN_ARGS], "wsbench: required option '--shards <n>' not specified"],
  [
    '--shards not a number',
    ['--shards', 'four', '--image', 'x', '--', ...RUN_ARGS],
    'wsbench: --shards: "four" is not a whole number from 1 to 1000',
  ],
  [
    '--shards a fraction',
    ['--shards', '2.5', '--image', 'x', '--', ...RUN_ARGS],
    'wsbench: --shards: "2.5" is not a whole number from 1 to 1000',
  ],
  [
    '--shards 0',
    ['--shards', '0', '--image', 'x', '--', ...RUN_ARGS],
    'wsbench: --shards: 0 is not a whole number from 1 to 1000',
  ],
  [
    '--shards 1001',
    ['--shards', '1001', '--image', 'x', '--', ...RUN_ARGS],
    'wsbench: --shards: 1001 is not a whole number from 1 to 1000',
  ],
  [
    '--name with capitals',
    ['--shards', '4', '--image', 'x', '--name', 'Bench_1', '--', ...RUN_ARGS],
    'wsbench: --name: "Bench_1" is not a DNS label',
  ],
  [
    '--name starting with a digit',
    ['--shards', '4', '--image', 'x', '--name', '1bench', '--', ...RUN_ARGS],
    'wsbench: --name: "1bench" is not a DNS label',
  ],
  [
    '--name too long for the hostnames',
    ['--shards', '4', '--image', 'x', '--name', 'b'.repeat(62), '--', ...RUN_ARGS],
    'wsbench: --name: "bbbb',
  ],
  [
    '--memory in milli-bytes',
    ['--shards', '4', '--image', 'x', '--memory', '512m', '--', ...RUN_ARGS],
    'wsbench: --memory: "512m" means milli-bytes to Kubernetes: write 512Mi',
  ],
  [
    '--barrier-port out of range',
    ['--shards', '4', '--image', 'x', '--barrier-port', '70000', '--', ...RUN_ARGS],
    'wsbench: --barrier-port: 70000 is not a port from 1 to 65535',
  ],
  ['no run arguments', ['--shards', '4', '--image', 'x'], 'wsbench: k8s: give the run arguments after "--"'],
  [
    'run arguments without --target',
    ['--shards', '4', '--image', 'x', '--', 'fanout'],
    'wsbench: k8s: the run arguments need --target URL',
  ],
  [
    'run arguments that set --shard',
    ['--shards', '4', '--image', 'x', '--', ...RUN_ARGS, '--shard', '0/4'],
    'wsbench: k8s: the run arguments must not hold --shard: wsbench k8s sets it in every pod',
  ],
  [
    'run arguments that set --format',
    ['--shards', '4', '--image', 'x', '--', ...RUN_ARGS, '--format', 'csv'],
    'wsbench: k8s: the run arguments must not hold --format: each pod prints its result as one line (--json-line); give --format to `wsbench merge` instead',
  ],
  [
    'run flags without "--"',
    ['--shards', '4', '--image', 'x', 'fanout', '--target', 'ws://a/'],
    'wsbench: unknown option \'--target\' (the run arguments go after "--")',
  ],
];

for (const [what, args, message] of BAD_INPUTS) {
  test(`bad input, one line and exit 2: ${what}`, async () => {
    const out = await runCli(['k8s', ...args], { timeoutMs: 60_000 });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(out.stdout, '');
    assert.equal(out.stderr.split('\n').filter(Boolean).length, 1, out.stderr);
    assert.ok(out.stderr.startsWith(message), `${out.stderr} should start with ${message}`);
  });
}

test('the Dockerfile copies only files that exist, and its entry point is the bin', () => {
  // The checkout itself, also from a private build whose package.json is a link to it.
  const root = dirname(realpathSync(join(REPO_ROOT, 'package.json')));
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
  assert.ok(sources.length >= 5, dockerfile);
  for (const source of sources)
    assert.ok(existsSync(join(root, source)), `Dockerfile copies ${source}, which the repo lacks`);
  const entry = JSON.stringify([
    'node',
    ...binNodeFlags(join(root, 'bin/wsbench.js')),
    '/app/bin/wsbench.js',
  ]).replaceAll(',', ', ');
  assert.ok(
    dockerfile.split('\n').includes(`ENTRYPOINT ${entry}`),
    `the image runs the bin with its shebang's Node flags: ENTRYPOINT ${entry}`,
  );
  assert.match(dockerfile, /npm ci --omit=dev/);
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim().replace(/^\//, ''));
  for (const source of sources) assert.ok(!ignored.includes(source), `.dockerignore hides ${source}`);
});
