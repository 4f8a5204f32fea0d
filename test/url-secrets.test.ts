/**
 * Secrets in URLs never leave the process: a --target (and a --server-url)
 * with a password and a token connect to a server that checks both, and
 * neither appears in anything wsbench writes or serves: the result JSON (argv
 * included), the report folder, the journal while it runs, stdout, stderr,
 * the dashboard's events and /metrics. A refused URL's message and a failed
 * cell's reason show the URL redacted too.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startCli } from './live-cli.js';
import { runCli, tempDir, usageErrorLine } from './support.js';
import { ECHO_FIXTURE, fixtureCommand, newTag, startPrintingServer } from './foreign-processes.js';
import { redactUrl, redactUrlsIn } from '../src/parent/redact/url-secrets.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const PASSWORD = 's3cretPW';
const TOKEN = 'TOPSECRET';
const SECRETS = new RegExp(`${PASSWORD}|${TOKEN}`);

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

test('redactUrl hides the password and every query value, and nothing else', () => {
  const cases: Array<[string, string]> = [
    ['ws://admin:s3cretPW@127.0.0.1:9/?token=TOPSECRET', 'ws://admin:***@127.0.0.1:9/?token=***'],
    ['wss://u:p@h/path?a=1&b=&c#frag', 'wss://u:***@h/path?a=***&b=&c#frag'],
    ['ws://127.0.0.1:9/', 'ws://127.0.0.1:9/'],
    ['ws://user@h/', 'ws://user@h/'],
    ['ws://admin:p@ss@h/?t=x', 'ws://admin:***@h/?t=***'],
    // Unparseable (an unencoded "/" in the password): the password is hidden all the same.
    ['ws://admin:pa/ss@h/', 'ws://admin:***@h/'],
    ['ws://admin:s3cretPW@{host}:{port}/?token=TOPSECRET', 'ws://admin:***@{host}:{port}/?token=***'],
    ['not a url', 'not a url'],
  ];
  for (const [url, expected] of cases) {
    assert.equal(redactUrl(url), expected, url);
    assert.equal(redactUrl(expected), expected, `idempotent: ${expected}`);
  }
  assert.equal(
    redactUrlsIn('mine=ws://a:b@h/?k=v and "http://c:d@e/" then'),
    'mine=ws://a:***@h/?k=*** and "http://c:***@e/" then',
  );
});

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<[string, string]> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isFile() ? [[path, readFileSync(path, 'latin1')] as [string, string]] : [];
  });
}

function noSecret(where: string, text: string): void {
  const found = SECRETS.exec(text);
  assert.equal(
    found,
    null,
    `a secret in ${where}: ...${found ? text.slice(Math.max(0, found.index - 120), found.index + 40) : ''}...`,
  );
}

/** An open server-sent-events stream, read as text until it ends. */
function readStream(url: string): { text(): string; close(): void } {
  let text = '';
  const req = request(url, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
  });
  req.on('error', () => undefined);
  req.end();
  return { text: () => text, close: () => req.destroy() };
}

test('a run against a server that checks a password and a token records neither, anywhere', {
  timeout: 180_000,
}, async () => {
  const { child, printed } = startPrintingServer(
    [
      process.execPath,
      ECHO_FIXTURE,
      '--port',
      '0',
      '--mode',
      'credentials',
      '--credentials',
      `admin:${PASSWORD}`,
      '--token',
      TOKEN,
      '--tag',
      newTag(),
    ],
    /:(\d+)/,
  );
  started.push(child);
  const port = Number((await printed)[1]);
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const cli = startCli(
    [
      'run',
      'echo',
      '--clients',
      'ws',
      '--duration',
      '1s',
      '--target',
      `mine=ws://admin:${PASSWORD}@127.0.0.1:${port}/?token=${TOKEN}`,
      // The command's own secrets come from its environment: only secrets in URLs are wsbench's to hide.
      '--server-cmd',
      `own=${fixtureCommand('credentials', newTag())}`,
      '--server-url',
      `ws://admin:${PASSWORD}@{host}:{port}/?token=${TOKEN}`,
      '--dashboard',
      ':0',
      '--metrics-listen',
      ':0',
      '--metrics-linger',
      '60s',
      '--out',
      out,
    ],
    { timeoutMs: 150_000, env: { FIXTURE_CREDENTIALS: `admin:${PASSWORD}`, FIXTURE_TOKEN: TOKEN } },
  );
  try {
    await cli.waitForStderr(/dashboard: http:\S+/);
    const events = readStream(`${/dashboard: (http:\S+)/.exec(cli.stderr())![1]!}events`);
    // The second cell has started: the journal holds the first one and the run's header.
    await cli.waitForStderr(/\[2\/2\] echo own x ws .*started/, 90_000);
    const journal = `${out}.journal`;
    assert.ok(existsSync(journal), 'the journal is there while the run goes on');
    noSecret('the journal while running', readFileSync(journal, 'utf8'));
    // After the run, /metrics waits for one last scrape: that scrape holds every cell.
    await cli.waitForStderr(/waiting up to 60 s for a last scrape/, 90_000);
    const scrape = await (await fetch(/metrics: (http:\S+)/.exec(cli.stderr())![1]!)).text();
    assert.match(scrape, /wsbench_cell_state\{[^}]*server="mine"/);
    noSecret('/metrics', scrape);
    const { code } = await cli.finished;
    events.close();
    assert.equal(code, 0, cli.stderr());
    assert.match(events.text(), /"status":"ok"/);
    noSecret('the dashboard events', events.text());
    noSecret('stdout', cli.stdout());
    noSecret('stderr', cli.stderr());

    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
    // Both servers let the clients in: the real URL, credentials and all, was used to connect.
    assert.deepEqual(
      result.cells.map((c) => [c.server, c.status]),
      [
        ['mine', 'ok'],
        ['own', 'ok'],
      ],
    );
    assert.deepEqual(
      result.environment.foreignServers?.map((s) => s.url),
      [`ws://admin:***@127.0.0.1:${port}/?token=***`, 'ws://admin:***@{host}:{port}/?token=***'],
    );
    assert.ok(result.argv?.includes(`mine=ws://admin:***@127.0.0.1:${port}/?token=***`), JSON.stringify(result.argv));
    for (const [path, text] of filesUnder(dir)) noSecret(path, text);
    const report = await runCli(['report', out, '--out', join(dir, 'again')]);
    assert.equal(report.code, 0, report.stderr);
    for (const [path, text] of filesUnder(join(dir, 'again'))) noSecret(path, text);
  } finally {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  }
});

test('a refused URL and a refused handshake say the URL without its secrets', async () => {
  const refused = await runCli(['run', 'echo', '--target', `wsx://admin:${PASSWORD}@127.0.0.1:9/?token=${TOKEN}`]);
  assert.equal(
    usageErrorLine(refused),
    'wsbench: --target: "wsx://admin:***@127.0.0.1:9/?token=***" is not a ws://, wss:// (WebSocket) or http://, https:// (socket.io) URL',
  );

  const { child, printed } = startPrintingServer(
    [
      process.execPath,
      ECHO_FIXTURE,
      '--port',
      '0',
      '--mode',
      'credentials',
      '--credentials',
      'admin:other',
      '--token',
      'other',
      '--tag',
      newTag(),
    ],
    /:(\d+)/,
  );
  started.push(child);
  const port = Number((await printed)[1]);
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--clients',
    'ws',
    '--duration',
    '1s',
    '--target',
    `ws://admin:${PASSWORD}@127.0.0.1:${port}/?token=${TOKEN}`,
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 1, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.equal(result.cells[0]!.status, 'failed');
  assert.match((result.cells[0] as { reason: string }).reason, /HTTP 401/);
  noSecret('stdout', outcome.stdout);
  noSecret('stderr', outcome.stderr);
  noSecret('the result', readFileSync(out, 'utf8'));
});

test('a URL with a #fragment is refused in one line that does not quote the fragment, exit 2', async () => {
  const dir = tempDir();
  const target = await runCli(
    ['run', 'echo', '--clients', 'ws', '--target', `ws://admin:${PASSWORD}@127.0.0.1:1/?token=${TOKEN}#frag=SECRET`],
    { cwd: dir },
  );
  assert.equal(
    usageErrorLine(target),
    'wsbench: --target: "ws://admin:***@127.0.0.1:1/?token=***#..." has a #fragment: a WebSocket URL has none (RFC 6455, section 3), and a server never sees one; remove it',
  );
  const command = await runCli(
    [
      'run',
      'echo',
      '--clients',
      'ws',
      '--server-cmd',
      `srv=${fixtureCommand('echo', newTag())}`,
      '--server-url',
      'ws://{host}:{port}/#frag=SECRET',
    ],
    { cwd: dir },
  );
  assert.equal(
    usageErrorLine(command),
    'wsbench: --server-url: srv: "ws://{host}:{port}/#..." has a #fragment: a WebSocket URL has none (RFC 6455, section 3), and a server never sees one; remove it',
  );
  assert.deepEqual(readdirSync(dir), [], 'nothing written');
});
