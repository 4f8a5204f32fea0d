/**
 * Reading a --server-cmd command before anything runs: where its port comes
 * from, and whether it can be started without a shell (a /bin/sh in between
 * would add its own memory to the server's measured RSS).
 */

/** `--port 8000`, `--port=8000`, `--ws-port 8000`, `-p 8000`: a port the command pins. */
const PORT_OPTION = /(?:^|\s)(?:--?(?:[a-z][a-z-]*-)?port|-p)(?:=|\s+)(\d{1,5})(?=\s|$)/i;
/** `127.0.0.1:8000`, `localhost:8000`, `[::1]:8000`, `0.0.0.0:8000`, or `:8000` after a space or `=`. */
const HOST_PORT = /(?:^|[\s=])(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]*\])?:(\d{1,5})(?=[\s/]|$)/i;

type PortSource = { from: 'placeholder' } | { from: 'command'; port: number } | { from: 'output' };

/**
 * How a command's port is found, or null when it cannot be:
 * - `{port}` in the command: wsbench picks a free port and puts it there;
 * - else a port the command names (`--port N`, `-p N`, `HOST:N`): that port,
 *   or with N = 0 (the server picks) the port the server prints;
 * - else null: wsbench would not know where to connect.
 */
export function portSourceOf(command: string): PortSource | null {
  if (command.includes('{port}')) return { from: 'placeholder' };
  const match = PORT_OPTION.exec(command) ?? HOST_PORT.exec(command);
  if (!match) return null;
  const port = Number(match[1]);
  if (port > 65535) return null;
  return port === 0 ? { from: 'output' } : { from: 'command', port };
}

/** Where a command takes the run's certificate and its key: the paths of two private files wsbench writes for it. */
const CERTIFICATE_PLACEHOLDERS = ['{cert}', '{key}'] as const;

/** A command that takes {cert} or {key} serves TLS with the run's certificate. */
export function takesCertificate(command: string): boolean {
  return CERTIFICATE_PLACEHOLDERS.some((placeholder) => command.includes(placeholder));
}

/** The placeholders of a command or URL template filled in; {cert} and {key} only when `files` is given. */
export function fillPlaceholders(
  template: string,
  values: { host: string; port: number | null; files?: { certPath: string; keyPath: string } },
): string {
  const filled = template.replaceAll('{host}', values.host).replaceAll('{port}', String(values.port ?? 0));
  return values.files
    ? filled.replaceAll('{cert}', values.files.certPath).replaceAll('{key}', values.files.keyPath)
    : filled;
}

/** `HOST:PORT` in a URL or address (an IPv4 address, localhost, or [IPv6]), or `port PORT`. */
const PRINTED_HOST_PORT = /(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]*\]):(\d{1,5})\b/i;
const PRINTED_PORT_WORD = /\bport\s*[:=]?\s*(\d{1,5})\b/i;

/** The port in one line the server printed (stdout or stderr); null when the line names none (or port 0). */
export function printedPort(line: string): number | null {
  for (const pattern of [PRINTED_HOST_PORT, PRINTED_PORT_WORD]) {
    const port = Number(pattern.exec(line)?.[1] ?? 0);
    if (port > 0 && port <= 65535) return port;
  }
  return null;
}

/** Characters that only a shell understands: with any of them the command runs through /bin/sh. */
const SHELL_SYNTAX = /[|&;<>()$`\\*?[\]#~!{}\n]/;

/**
 * The command split into words when it is plain words and quotes, so it can be
 * started directly; null when it needs a shell (pipes, variables, globs,
 * `VAR=value cmd`, ...).
 */
export function plainArgv(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end < 0) return null;
      const quoted = command.slice(i + 1, end);
      if (c === '"' && SHELL_SYNTAX.test(quoted)) return null;
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else {
      if (SHELL_SYNTAX.test(c)) return null;
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  if (words.length === 0 || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) return null;
  return words;
}
