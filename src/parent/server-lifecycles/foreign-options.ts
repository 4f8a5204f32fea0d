/**
 * --target and --server-cmd as the library takes them (RunOptions.targets and
 * .serverCommands), checked before anything starts: errors name the option.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ParameterError } from '../../shared/types/errors.js';
import type { ForeignServerInfo, StackInfo } from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { readProcess } from '../measure/proc-sampler.js';
import { fillPlaceholders, plainArgv, portSourceOf, takesCertificate } from './command-text.js';
import { protocolOfUrl } from './foreign-url.js';
import { isTlsUrl } from '../../child/clients/tls-trust.js';
import type { ForeignServerSpec } from './types.js';
import { redactUrl, redactUrlsIn } from '../redact/url-secrets.js';

/** A server that is already running. `N`: its name's type (run() infers it, so `servers` may list the name). */
export interface TargetOption<N extends string = string> {
  /** Its name in the table; default the URL's host:port. */
  name?: N;
  /** ws:// or wss:// for WebSocket, http:// or https:// for socket.io; the path is kept. */
  url: string;
  /** Process whose tree wsbench samples for CPU and RSS; without it they are not measured. */
  pid?: number;
}

/** A server wsbench starts for each cell. `N`: its name's type (run() infers it, so `servers` may list the name). */
export interface ServerCommandOption<N extends string = string> {
  name: N;
  /**
   * Run directly when plain words and quotes, else through /bin/sh; {port} and {host} are filled in.
   * {cert} and {key} become the paths of the run's certificate and key (private files, deleted when
   * the run ends): a command that takes them serves TLS, and the clients trust exactly that certificate.
   */
  command: string;
  /** What clients connect to; default ws://{host}:{port}/ (wss:// when the command takes {cert} or {key}; http://... for a socket.io server). */
  url?: string;
  /** How long it may take to accept a WebSocket handshake; default 20 s. */
  startTimeoutMs?: number;
}

const DEFAULT_COMMAND_URL = 'ws://{host}:{port}/';
/** The default URL of a command that takes the run's certificate. */
const DEFAULT_TLS_COMMAND_URL = 'wss://{host}:{port}/';
/** A Python server importing its framework on a busy 2-core machine may take a few seconds. */
const DEFAULT_START_TIMEOUT_MS = 20_000;
const NAME = /^[A-Za-z0-9._:[\]-]+$/;
const URL_KINDS = 'a ws://, wss:// (WebSocket) or http://, https:// (socket.io) URL';

export function foreignSpecs(
  targets: readonly TargetOption[],
  commands: readonly ServerCommandOption[],
  builtIn: readonly string[],
): ForeignServerSpec[] {
  const specs: ForeignServerSpec[] = [];
  const seen = new Set<string>();
  const checkName = (option: 'targets' | 'serverCommands', name: string, of: string): void => {
    if (name === '') throw new ParameterError(option, `an empty name (for ${of})`);
    if (!NAME.test(name))
      throw new ParameterError(option, `"${name}" is not a name: use letters, digits and . _ - : [ ]`);
    if (builtIn.includes(name))
      throw new ParameterError(
        option,
        `"${name}" is a built-in server stack (${builtIn.join(', ')}): choose another name`,
      );
    if (seen.has(name)) throw new ParameterError(option, `the name "${name}" is given to two servers`);
    seen.add(name);
  };
  for (const target of targets) {
    const protocol = protocolOfUrl(target.url);
    if (!protocol) throw new ParameterError('targets', `"${redactUrl(target.url)}" is not ${URL_KINDS}`);
    if (target.url.includes('#')) throw new ParameterError('targets', withFragment(target.url));
    const name = target.name ?? new URL(target.url).host;
    checkName('targets', name, redactUrl(target.url));
    if (target.pid !== undefined) {
      if (!Number.isInteger(target.pid) || target.pid < 1)
        throw new ParameterError('targetPid', `"${target.pid}" is not a process id`);
      if (!readProcess(target.pid))
        throw new ParameterError('targetPid', `no process ${target.pid} (for target ${name})`);
    }
    specs.push({
      kind: 'target',
      name,
      protocol,
      url: target.url,
      ...(target.pid !== undefined ? { pid: target.pid } : {}),
      tls: isTlsUrl(target.url),
    });
  }
  for (const command of commands) {
    checkName('serverCommands', command.name, command.command || 'an empty command');
    const text = command.command.trim();
    if (text === '') throw new ParameterError('serverCommands', `${command.name}: the command is empty`);
    const port = portSourceOf(text);
    if (!port) {
      throw new ParameterError(
        'serverCommands',
        `${command.name}: no {port} in the command and no port to read from it: put {port} where the server takes its port (e.g. --port {port})`,
      );
    }
    const certificate = takesCertificate(text);
    const urlTemplate = command.url ?? (certificate ? DEFAULT_TLS_COMMAND_URL : DEFAULT_COMMAND_URL);
    const sampleUrl = fillPlaceholders(urlTemplate, { host: '127.0.0.1', port: 1 });
    const protocol = protocolOfUrl(sampleUrl);
    if (!protocol)
      throw new ParameterError(
        'serverUrl',
        `${command.name}: "${urlTemplate}" is not ${URL_KINDS} ({host} and {port} are filled in)`,
      );
    if (urlTemplate.includes('#'))
      throw new ParameterError('serverUrl', `${command.name}: ${withFragment(urlTemplate)}`);
    if (certificate && !isTlsUrl(sampleUrl)) {
      throw new ParameterError(
        'serverUrl',
        `${command.name}: the command takes {cert} or {key}, so it serves TLS: its URL must be wss:// or https://, not "${urlTemplate}"`,
      );
    }
    const missing = missingProgram(text);
    if (missing) throw new ParameterError('serverCommands', `${command.name}: ${missing}: command not found`);
    const startTimeoutMs = command.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    if (!(startTimeoutMs >= 100 && startTimeoutMs <= 3_600_000)) {
      throw new ParameterError('serverStartTimeout', `${startTimeoutMs}ms is not between 100ms and 1h`);
    }
    specs.push({
      kind: 'command',
      name: command.name,
      protocol,
      command: text,
      urlTemplate,
      port,
      startTimeoutMs,
      tls: isTlsUrl(sampleUrl),
      takesCertificate: certificate,
    });
  }
  return specs;
}

/**
 * Why a URL with a #fragment is refused, quoting it up to the "#" (secrets redacted): the fragment is
 * never sent to a server, and is no place for wsbench to keep whatever someone put there.
 */
function withFragment(url: string): string {
  return `"${redactUrl(url.slice(0, url.indexOf('#')))}#..." has a #fragment: a WebSocket URL has none (RFC 6455, section 3), and a server never sees one; remove it`;
}

/** The program of a command that runs without a shell, when it cannot be found; null otherwise. */
function missingProgram(command: string): string | null {
  const program = plainArgv(
    fillPlaceholders(command, { host: '127.0.0.1', port: 1, files: { certPath: 'cert.pem', keyPath: 'key.pem' } }),
  )?.[0];
  if (!program) return null;
  const candidates = program.includes('/')
    ? [isAbsolute(program) ? program : resolve(program)]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.some(executable) ? null : program;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A foreign server as a stack, so the same pairing rules apply: protocol, and what the scenario requires. */
export function foreignStackInfo(spec: ForeignServerSpec): StackInfo {
  const websocket = spec.protocol === 'websocket';
  return {
    name: spec.name,
    role: 'server',
    protocol: spec.protocol,
    availability: { available: true, version: spec.kind },
    // The protocol pages ask a WebSocket server for fragmented sends and its routes; deflate is the server's to accept or decline.
    capabilities: {
      fragmentControl: websocket,
      httpRoutes: true,
      deflate: websocket,
      sharedPort: false,
      tls: spec.tls,
    },
  };
}

/** Why a scenario cannot run against a foreign server at all, or null. */
export function foreignScenarioSkip(scenario: AnyScenario): string | null {
  const why = scenario.requires?.wsbenchServer;
  return why ? `${scenario.name} runs only against wsbench's own servers: ${why}` : null;
}

/** How the result JSON records a foreign server: its URL (and any URL in its command) without secrets. */
export function foreignServerInfo(spec: ForeignServerSpec): ForeignServerInfo {
  if (spec.kind === 'target')
    return {
      name: spec.name,
      kind: 'target',
      protocol: spec.protocol,
      url: redactUrl(spec.url),
      ...(spec.pid !== undefined ? { pid: spec.pid } : {}),
    };
  return {
    name: spec.name,
    kind: 'command',
    protocol: spec.protocol,
    url: redactUrl(spec.urlTemplate),
    command: redactUrlsIn(spec.command),
  };
}
