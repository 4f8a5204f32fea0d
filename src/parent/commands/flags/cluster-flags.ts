/**
 * One run over many load machines: the Kubernetes manifest of `k8s` and the
 * shard flags of `run` (--shard I/N, its run id, and how the shards' windows
 * line up). shard-flags.ts reads the shard flags together, since they only
 * mean something beside --shard.
 */
import type { FlagDeclaration } from './flag-types.js';
import { duration, wholeNumber } from './readers.js';
import { DEFAULT_BARRIER_PORT, MAX_SHARDS } from '../../shard/k8s-manifest.js';
import { DEFAULT_BARRIER_LISTEN, DEFAULT_BARRIER_TIMEOUT_MS } from '../../shard/shard-options.js';

export const K8S_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--shards',
    value: '<n>',
    help: `number of shards, one pod each (1 to ${MAX_SHARDS})`,
    read: wholeNumber(`a whole number from 1 to ${MAX_SHARDS}`),
    commands: { k8s: { required: true } },
  },
  {
    flag: '--image',
    value: '<image>',
    help: 'container image holding wsbench, built from the Dockerfile of a wsbench checkout (docs/kubernetes.md)',
    commands: { k8s: { required: true } },
  },
  {
    flag: '--name',
    value: '<name>',
    help: 'name of the Job and the Service; pods are NAME-0, NAME-1, ...',
    default: 'wsbench',
    commands: { k8s: true },
  },
  { flag: '--namespace', value: '<ns>', help: "namespace (default: kubectl's current one)", commands: { k8s: true } },
  {
    flag: '--cpu',
    value: '<quantity>',
    help: 'CPU of each pod, requested and limited alike',
    default: '2',
    commands: { k8s: true },
  },
  {
    flag: '--memory',
    value: '<quantity>',
    help: 'memory of each pod, requested and limited alike',
    default: '2Gi',
    commands: { k8s: true },
  },
  {
    flag: '--barrier-port',
    value: '<port>',
    help: "port of shard 0's start barrier",
    default: String(DEFAULT_BARRIER_PORT),
    read: wholeNumber('a port from 1 to 65535'),
    commands: { k8s: true },
  },
];

const listen = `${DEFAULT_BARRIER_LISTEN.host}:${DEFAULT_BARRIER_LISTEN.port}`;

/** The flags of a shard; all but --shard mean something only beside it. */
export const SHARD_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--shard',
    value: '<I/N>',
    help: 'run shard I (from 0) of N load machines against the same --target; I may be env:NAME (e.g. env:JOB_COMPLETION_INDEX/4)',
    commands: { run: true },
  },
  {
    flag: '--run-id',
    value: '<id>',
    commands: {
      run: { help: 'the id every shard of one run shares (with --shard)' },
      k8s: { help: 'run id shared by the shards (default: NAME and a random suffix)' },
    },
  },
  {
    flag: '--start-at',
    value: '<time>',
    help: "open every shard's first window at this time: ISO time or epoch ms (NTP-synced hosts)",
    commands: { run: true },
  },
  {
    flag: '--barrier',
    value: '<url>',
    help: "shard 0's barrier (http://HOST:PORT): every shard waits there once connected, so every cell's window opens at once",
    commands: { run: true },
  },
  {
    flag: '--barrier-listen',
    value: '<host:port>',
    help: `where shard 0 serves the barrier (default ${listen})`,
    commands: { run: true },
  },
  {
    flag: '--barrier-timeout',
    value: '<duration>',
    help: `how long the barrier waits for the last shard of a cell before it opens the window without it (default ${DEFAULT_BARRIER_TIMEOUT_MS / 1000}s)`,
    read: duration('30s, 2m'),
    commands: { run: true },
  },
];
