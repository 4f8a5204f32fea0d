/**
 * The command-line edge of foreign servers: --target, --target-pid,
 * --server-cmd and --server-url, in the order given (a --target-pid or
 * --server-url belongs to the --target or --server-cmd before it), turned into
 * RunOptions.targets and .serverCommands; --ca (the file read here) and
 * --insecure into .ca and .insecure. The library checks the rest.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { readChecked } from '../safe-files.js';
import { parseDurationMs } from '../parsing/units.js';
import type { ServerCommandOption, TargetOption } from '../engine/server-lifecycles/foreign-options.js';

/** Flag names as commander stores them, for the list a scenario parameter may not reuse. */
export const FOREIGN_FLAG_NAMES = ['target', 'targetPid', 'serverCmd', 'serverUrl', 'serverStartTimeout', 'ca', 'insecure'];

type Given = { flag: '--target' | '--target-pid' | '--server-cmd' | '--server-url'; text: string };

/** Adds the four flags; the returned list fills as commander parses, in command-line order. */
export function addForeignServerOptions(command: Command): Given[] {
  const given: Given[] = [];
  const collect = (flag: Given['flag']) => (text: string): Given[] => {
    given.push({ flag, text });
    return given;
  };
  command
    .option(
      '--target <[name=]url>',
      'measure a server that is already running (repeatable): ws:// or wss:// speaks WebSocket, http:// or https:// socket.io; '
        + 'only the clients run, and the cell\'s parameters are appended to the URL\'s query (docs/protocols/)',
      collect('--target'),
    )
    .option('--target-pid <[name=]pid>', 'the process of the --target before it (or the named one): its process tree\'s CPU and RSS are sampled', collect('--target-pid'))
    .option(
      '--server-cmd <name=command>',
      'start a server in any language for each cell (repeatable): {port} becomes a free port ({host} the --host); '
        + 'without {port} the command must name one (--port 8000; --port 0: the port it prints is read); '
        + '{cert} and {key} become the run\'s certificate and key files: such a command serves TLS (wss://)',
      collect('--server-cmd'),
    )
    .option('--server-url <template>', 'what clients of the --server-cmd before it connect to (default ws://{host}:{port}/; http://{host}:{port} for socket.io)', collect('--server-url'))
    .option('--server-start-timeout <duration>', 'how long a --server-cmd server may take to accept a WebSocket handshake (default 20s)')
    .option('--ca <file>', 'PEM certificate the clients trust for a wss:// or https:// --target (instead of their default roots)')
    .option('--insecure', 'do not verify the certificate of a wss:// or https:// --target (the result and the table say so)');
  return given;
}

/** --ca's file read into the PEM text the library takes (a file that cannot be read is bad input), and --insecure. */
export function foreignTrustOptions(flags: Readonly<Record<string, unknown>>): { ca?: string; insecure?: boolean } {
  const trust: { ca?: string; insecure?: boolean } = flags.insecure === true ? { insecure: true } : {};
  if (typeof flags.ca !== 'string') return trust;
  // A regular file within the PEM limit: a FIFO would wait for a writer, /dev/zero would never end.
  return { ...trust, ca: readChecked(flags.ca, 'pem', { flag: '--ca' }).toString('utf8') };
}

/** The flags as the library's options; usage errors for what only the command line can get wrong. */
export function foreignServerOptions(given: Given[], startTimeout?: string): { targets: TargetOption[]; serverCommands: ServerCommandOption[] } {
  const startTimeoutMs = startTimeout === undefined ? undefined : parseDurationMs(startTimeout);
  if (startTimeoutMs === null) throw new UsageError(`--server-start-timeout: "${startTimeout}" is not a duration such as 500ms, 5s, 1m`);
  const targets: TargetOption[] = [];
  const serverCommands: ServerCommandOption[] = [];
  let last: '--target' | '--server-cmd' | null = null;
  for (const { flag, text } of given) {
    if (flag === '--target') {
      const named = targetName(text);
      targets.push(named ? { name: named.name.trim(), url: named.url.trim() } : { url: text.trim() });
      last = flag;
    } else if (flag === '--server-cmd') {
      const named = /^([^=\s]*)=(.*)$/s.exec(text.trim());
      if (!named) throw new UsageError(`--server-cmd: "${text}" has no name: write NAME=COMMAND`);
      serverCommands.push({ name: named[1]!, command: named[2]!, ...(startTimeoutMs !== undefined ? { startTimeoutMs } : {}) });
      last = flag;
    } else if (flag === '--target-pid') {
      const named = /^([^=]*)=(.*)$/s.exec(text);
      const pidText = (named ? named[2]! : text).trim();
      if (pidText === '') throw new UsageError('--target-pid: empty: give the process id of the --target\'s server (a "$(pgrep ...)" that matched no process gives an empty one)');
      if (/^\d+(\s+\d+)+$/.test(pidText)) throw new UsageError(`--target-pid: "${pidText.split(/\s+/).join(' ')}" is more than one process id: give one (pgrep -o gives the oldest match)`);
      if (!/^\d+$/.test(pidText) || Number(pidText) < 1) throw new UsageError(`--target-pid: "${pidText}" is not a process id`);
      const target = named ? targets.find((t) => nameOf(t) === named[1]!.trim()) : last === '--target' ? targets.at(-1) : undefined;
      if (!target) {
        throw new UsageError(named ? `--target-pid: no --target named "${named[1]}" before it` : '--target-pid: give it right after the --target it belongs to, or as NAME=PID');
      }
      if (target.pid !== undefined) throw new UsageError(`--target-pid: target ${nameOf(target)} was given two pids`);
      target.pid = Number(pidText);
    } else {
      const command = last === '--server-cmd' ? serverCommands.at(-1) : undefined;
      if (!command) throw new UsageError('--server-url: give it right after the --server-cmd it belongs to');
      if (command.url !== undefined) throw new UsageError(`--server-url: server ${command.name} was given two URLs`);
      command.url = text.trim();
    }
  }
  return { targets, serverCommands };
}

/**
 * NAME=URL taken apart where the URL begins (its scheme), so that a name holding "=" is judged as a name
 * and not blamed on the URL; without a scheme, at the first "=" of a name with no ":/?#" (then the URL is
 * what is wrong). null: no name, the whole text is the URL.
 */
function targetName(text: string): { name: string; url: string } | null {
  const atScheme = /^((?:(?!:\/\/).)*?)=\s*((?:wss?|https?):\/\/.*)$/is.exec(text);
  const named = atScheme ?? /^([^=:/?#]*)=(.*)$/s.exec(text);
  return named ? { name: named[1]!, url: named[2]! } : null;
}

function nameOf(target: TargetOption): string {
  if (target.name !== undefined) return target.name;
  try {
    return new URL(target.url).host;
  } catch {
    return target.url;
  }
}
