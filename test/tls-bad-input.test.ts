import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCertificate } from '../src/parent/certificate.js';
import { tempDir } from './support.js';
import { testRefusedRunInput, type RefusedInput } from './refused-run-input.js';

const folder = tempDir();
const notPem = join(folder, 'not.pem');
writeFileSync(notPem, 'hello\n');
const caFile = join(folder, 'ca.pem');
writeFileSync(caFile, (await makeCertificate()).certPem);
const missing = join(folder, 'missing.pem');

/** Each bad TLS input: the exact one line on stderr, exit 2, nothing started and nothing on stdout. */
const cases: RefusedInput[] = [
  [
    '--ca whose file does not exist',
    ['--target', 'wss://127.0.0.1:9/', '--ca', missing],
    `wsbench: --ca: ${missing} does not exist`,
  ],
  [
    '--ca whose file holds no certificate',
    ['--target', 'wss://127.0.0.1:9/', '--ca', notPem],
    'wsbench: --ca: holds no PEM certificate',
  ],
  [
    '--ca without a wss target',
    ['--target', 'ws://127.0.0.1:9/', '--ca', caFile],
    'wsbench: --ca: needs a wss:// or https:// --target (or a --server-cmd with such a --server-url that takes no {cert} and {key})',
  ],
  [
    '--insecure without any target',
    ['--insecure'],
    'wsbench: --insecure: needs a wss:// or https:// --target (or a --server-cmd with such a --server-url that takes no {cert} and {key})',
  ],
  [
    '--insecure with --ca',
    ['--target', 'wss://127.0.0.1:9/', '--ca', caFile, '--insecure'],
    'wsbench: --insecure: cannot go with --ca: trust the certificate you name, or verify none',
  ],
  [
    '--tls on with a ws:// target',
    ['--target', 'ws://127.0.0.1:9/', '--tls', 'on'],
    'wsbench: --tls: on, but target 127.0.0.1:9 is ws:// (no TLS): give its wss:// (or https://) URL, or --tls off',
  ],
  [
    '--tls off with a wss:// target',
    ['--target', 'wss://127.0.0.1:9/', '--tls', 'off'],
    'wsbench: --tls: off, but target 127.0.0.1:9 is wss:// (TLS): give --tls on (or drop --tls)',
  ],
  [
    '--tls on with a --server-cmd that takes no certificate',
    ['--server-cmd', `py=${process.execPath} x.js --port {port}`, '--tls', 'on'],
    'wsbench: --tls: on, but the --server-cmd py serves no TLS (it takes no {cert} and {key}): put {cert} and {key} where its command takes a certificate and key, or --tls off',
  ],
  [
    'a --server-cmd taking {cert} with a ws:// URL',
    [
      '--server-cmd',
      `py=${process.execPath} x.js --port {port} --cert {cert} --key {key}`,
      '--server-url',
      'ws://{host}:{port}/',
    ],
    'wsbench: --server-url: py: the command takes {cert} or {key}, so it serves TLS: its URL must be wss:// or https://, not "ws://{host}:{port}/"',
  ],
  ['--tls with a value it does not take', ['--tls', 'yes'], 'wsbench: --tls: '],
];

testRefusedRunInput(cases);
