/**
 * What `run` and `capacity` make of the foreign-server flags (declared in
 * flags/server-flags.ts): --target, --target-pid, --server-cmd and
 * --server-url, in the order given (a --target-pid or
 * --server-url belongs to the --target or --server-cmd before it), turned into
 * RunOptions.targets and .serverCommands; --ca (the file read here) and
 * --insecure into .ca and .insecure. The library checks the rest.
 */
import type { Command } from 'commander';
import { UsageError } from '../../shared/types/errors.js';
import { readChecked } from '../../shared/safe-files.js';
import { readFlag } from './flags/index.js';
import { SERVER_FLAGS } from './flags/server-flags.js';
import type { ServerCommandOption, TargetOption } from '../server-lifecycles/foreign-options.js';

type Given = { flag: '--target' | '--target-pid' | '--server-cmd' | '--server-url'; text: string };

/** The repeatable server flags: each one's meaning depends on the ones before it. */
const ORDERED = SERVER_FLAGS.filter((declaration) => declaration.many === 'repeat').map(
  (declaration) => declaration.flag as Given['flag'],
);

/**
 * The four flags in command-line order, as commander reads them: the returned list fills as it parses
 * (a --target-pid or --server-url belongs to the --target or --server-cmd before it).
 */
export function foreignServersGiven(command: Command): Given[] {
  const given: Given[] = [];
  for (const flag of ORDERED) command.on(`option:${flag.slice(2)}`, (text: string) => given.push({ flag, text }));
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
export function foreignServerOptions(
  given: Given[],
  flags: object,
): { targets: TargetOption[]; serverCommands: ServerCommandOption[] } {
  const startTimeoutMs = readFlag<number>(flags, '--server-start-timeout');
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
      serverCommands.push({
        name: named[1]!,
        command: named[2]!,
        ...(startTimeoutMs !== undefined ? { startTimeoutMs } : {}),
      });
      last = flag;
    } else if (flag === '--target-pid') {
      const named = /^([^=]*)=(.*)$/s.exec(text);
      const pidText = (named ? named[2]! : text).trim();
      if (pidText === '')
        throw new UsageError(
          '--target-pid: empty: give the process id of the --target\'s server (a "$(pgrep ...)" that matched no process gives an empty one)',
        );
      if (/^\d+(\s+\d+)+$/.test(pidText))
        throw new UsageError(
          `--target-pid: "${pidText.split(/\s+/).join(' ')}" is more than one process id: give one (pgrep -o gives the oldest match)`,
        );
      if (!/^\d+$/.test(pidText) || Number(pidText) < 1)
        throw new UsageError(`--target-pid: "${pidText}" is not a process id`);
      const target = named
        ? targets.find((t) => nameOf(t) === named[1]!.trim())
        : last === '--target'
          ? targets.at(-1)
          : undefined;
      if (!target) {
        throw new UsageError(
          named
            ? `--target-pid: no --target named "${named[1]}" before it`
            : '--target-pid: give it right after the --target it belongs to, or as NAME=PID',
        );
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
