/**
 * Servers wsbench does not start from its own stacks: --target (running
 * already), --server-cmd (started for each cell), what belongs to each, and the
 * trust of a TLS target. foreign-flags.ts reads them, in command-line order.
 */
import type { FlagDeclaration } from './flag-types.js';
import { duration } from './readers.js';

const RUN_AND_CAPACITY = { run: true, capacity: true } as const;

export const SERVER_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--target',
    value: '<[name=]url>',
    many: 'repeat',
    parameter: 'targets',
    help:
      'measure a server that is already running (repeatable): ws:// or wss:// speaks WebSocket, http:// or https:// socket.io; ' +
      "only the clients run, and the cell's parameters are appended to the URL's query (docs/protocols/)",
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--target-pid',
    value: '<[name=]pid>',
    many: 'repeat',
    help: "the process of the --target before it (or the named one): its process tree's CPU and RSS are sampled",
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--server-cmd',
    value: '<name=command>',
    many: 'repeat',
    parameter: 'serverCommands',
    help:
      'start a server in any language for each cell (repeatable): {port} becomes a free port ({host} the --host); ' +
      'without {port} the command must name one (--port 8000; --port 0: the port it prints is read); ' +
      "{cert} and {key} become the run's certificate and key files: such a command serves TLS (wss://)",
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--server-url',
    value: '<template>',
    many: 'repeat',
    help: 'what clients of the --server-cmd before it connect to (default ws://{host}:{port}/; http://{host}:{port} for socket.io)',
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--server-start-timeout',
    value: '<duration>',
    help: 'how long a --server-cmd server may take to accept a WebSocket handshake (default 20s)',
    read: duration('500ms, 5s, 1m'),
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--ca',
    value: '<file>',
    help: 'PEM certificate the clients trust for a wss:// or https:// --target (instead of their default roots)',
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--insecure',
    help: 'do not verify the certificate of a wss:// or https:// --target (the result and the table say so)',
    commands: RUN_AND_CAPACITY,
  },
  {
    flag: '--keep-server',
    help: 'start each --server-cmd server once and keep it for all its steps (default: a fresh server for every step, as built-in stacks get)',
    commands: { capacity: true },
  },
];
