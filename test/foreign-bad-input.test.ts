import { testRefusedRunInput, type RefusedInput } from './refused-run-input.js';

/** Each bad input: the exact one line on stderr, exit 2, nothing started and nothing on stdout. */
const cases: RefusedInput[] = [
  [
    'a URL that is not ws, wss, http or https',
    ['--target', 'ftp://example.invalid/'],
    'wsbench: --target: "ftp://example.invalid/" is not a ws://, wss:// (WebSocket) or http://, https:// (socket.io) URL',
  ],
  [
    'a target with an empty name',
    ['--target', '=ws://127.0.0.1:9/'],
    'wsbench: --target: an empty name (for ws://127.0.0.1:9/)',
  ],
  [
    'a target named like a built-in stack',
    ['--target', 'uws=ws://127.0.0.1:9/'],
    'wsbench: --target: "uws" is a built-in server stack (',
  ],
  [
    'two servers with one name',
    ['--target', 'a=ws://127.0.0.1:9/', '--server-cmd', 'a=node x.js --port {port}'],
    'wsbench: --server-cmd: the name "a" is given to two servers',
  ],
  [
    'a command with an empty name',
    ['--server-cmd', '=node x.js --port {port}'],
    'wsbench: --server-cmd: an empty name (for node x.js --port {port})',
  ],
  [
    'a command without a name',
    ['--server-cmd', 'node x.js --port {port}'],
    'wsbench: --server-cmd: "node x.js --port {port}" has no name: write NAME=COMMAND',
  ],
  [
    'a command without {port} and no port to read',
    ['--server-cmd', 'py=node x.js'],
    'wsbench: --server-cmd: py: no {port} in the command and no port to read from it: put {port} where the server takes its port (e.g. --port {port})',
  ],
  [
    'a command whose program does not exist',
    ['--server-cmd', 'py=no-such-program-here --port {port}'],
    'wsbench: --server-cmd: py: no-such-program-here: command not found',
  ],
  [
    'a --target-pid that does not exist',
    ['--target', 'a=ws://127.0.0.1:9/', '--target-pid', '999999999'],
    'wsbench: --target-pid: no process 999999999 (for target a)',
  ],
  [
    'a --target-pid before any --target',
    ['--target-pid', '1', '--target', 'a=ws://127.0.0.1:9/'],
    'wsbench: --target-pid: give it right after the --target it belongs to, or as NAME=PID',
  ],
  [
    'a --target-pid that is not a number',
    ['--target', 'a=ws://127.0.0.1:9/', '--target-pid', 'me'],
    'wsbench: --target-pid: "me" is not a process id',
  ],
  [
    'a --server-url that is not a URL',
    ['--server-cmd', 'py=node x.js --port {port}', '--server-url', 'tcp://{host}:{port}'],
    'wsbench: --server-url: py: "tcp://{host}:{port}" is not a ws://, wss:// (WebSocket) or http://, https:// (socket.io) URL ({host} and {port} are filled in)',
  ],
];

testRefusedRunInput(cases);
