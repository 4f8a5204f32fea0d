/**
 * Which cells of a plan cannot run here, and why: pairs that speak different
 * protocols, stacks that do not load, features the scenario needs and a stack
 * lacks. A skip is a result with its reason, never a failure. Reasons are
 * worded without the stack names where they can be, so the table folds all
 * such pairs into one line.
 */
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import type { StackInfo } from '../../shared/types/result-types.js';
import type { CellPlan } from './cell.js';
import { serverProcessCount } from './params.js';
import { foreignScenarioSkip, foreignStackInfo } from '../server-lifecycles/foreign-options.js';
import type { ForeignServerSpec } from '../server-lifecycles/types.js';
import { whyNoRestart } from './server-restart.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import { foreignTlsSkip, needsTrust } from './tls-options.js';

/** What a scenario may require, which side must offer it, and how a skip says it is missing. */
const REQUIREMENTS = [
  {
    need: 'fragmentControl',
    side: 'server',
    missing: 'needs a server that sends one message as several WebSocket frames',
  },
  { need: 'httpRoutes', side: 'server', missing: 'needs a server that serves its HTTP routes' },
  {
    need: 'wireTap',
    side: 'client',
    missing: "needs a client that hands over the socket's raw bytes (frames are read off the wire)",
  },
  {
    need: 'pauseReading',
    side: 'client',
    missing: "needs a client that can stop reading its socket (so the bytes stay in the kernel's buffers)",
  },
  { need: 'httpClient', side: 'client', missing: "needs a client that can call the server's HTTP routes" },
] as const;

/** Why a built-in server stack skips a client-only scenario: worded without names, so the table folds every such pair into one line. */
const NO_SERVER_HALF = 'the scenario has no server half';

/**
 * Why `cell` cannot run with these stacks (as probed) and foreign servers; null when it can.
 * `foreignTrust`: what the clients trust for a foreign TLS server without the run's certificate (--ca, --insecure).
 */
export function whySkip(
  cell: CellPlan,
  scenario: AnyScenario,
  stacks: readonly StackInfo[],
  foreign: readonly ForeignServerSpec[],
  foreignTrust?: ClientTls,
): string | null {
  if (cell.foreign) {
    const skip = foreignScenarioSkip(scenario) ?? whyNoRestart(scenario, cell.foreign);
    if (skip !== null) return skip;
  } else if (!scenario.server) {
    return NO_SERVER_HALF;
  } else {
    const skip = scenario.builtInServerSkip?.(cell.params) ?? null;
    if (skip !== null) return skip;
  }
  // A foreign server pairs by the same rules, as a stack whose protocol its URL says.
  const pairing = [...stacks, ...foreign.map(foreignStackInfo)];
  const server = pairing.find((s) => s.role === 'server' && s.name === cell.server)!;
  const client = pairing.find((s) => s.role === 'client' && s.name === cell.client)!;
  if (server.protocol !== client.protocol)
    return `a ${server.protocol} server cannot talk to a ${client.protocol} client`;
  if (!server.availability.available) return `server ${cell.server} unavailable: ${server.availability.reason}`;
  if (!client.availability.available) return `client ${cell.client} unavailable: ${client.availability.reason}`;
  const sides = { server, client };
  for (const { need, side, missing } of REQUIREMENTS) {
    if (scenario.requires?.[need] && sides[side].capabilities?.[need] !== true) return `${scenario.name} ${missing}`;
  }
  if (cell.params.deflate === 'on') {
    const unable = [server, client].find((s) => s.capabilities?.deflate !== true);
    if (unable) return `deflate=on: the ${unable.name} ${unable.role} cannot negotiate permessage-deflate`;
  }
  return whyNotTls(cell, server, client, foreignTrust) ?? whyNotProcesses(cell, scenario, server);
}

/**
 * TLS on needs a server that serves it and a client that can trust what it is given: a CA (the
 * run's certificate, or --ca), or nothing at all (--insecure). A foreign server's cells have the
 * `tls` value its URL or command says; the other value is skipped.
 */
function whyNotTls(
  cell: CellPlan,
  server: StackInfo,
  client: StackInfo,
  foreignTrust: ClientTls | undefined,
): string | null {
  if (cell.foreign) {
    const mismatch = foreignTlsSkip(cell.foreign, cell.params.tls);
    if (mismatch !== null || !cell.foreign.tls) return mismatch;
    if (!needsTrust(cell.foreign)) return clientCannotTrust(client, 'a CA');
    if (foreignTrust?.insecure) {
      return client.capabilities?.tlsInsecure === true
        ? null
        : `--insecure: the ${client.name} client cannot skip certificate verification`;
    }
    return foreignTrust ? clientCannotTrust(client, 'a CA') : null;
  }
  if (cell.params.tls !== 'on') return null;
  if (server.capabilities?.tls !== true) return `tls=on: the ${server.name} server cannot serve TLS`;
  return clientCannotTrust(client, 'a CA');
}

function clientCannotTrust(client: StackInfo, what: string): string | null {
  return client.capabilities?.tls === true
    ? null
    : `tls=on: the ${client.name} client cannot be given ${what} to trust`;
}

/** serverProcesses above 1 needs a built-in stack that can share its port and a scenario whose server half allows it. */
function whyNotProcesses(cell: CellPlan, scenario: AnyScenario, server: StackInfo): string | null {
  const count = serverProcessCount(cell.params);
  if (count === 1) return null;
  const asked = `serverProcesses=${count}`;
  if (cell.foreign) return `${asked}: a --target or --server-cmd server runs as it was started`;
  if (!scenario.multiProcessServer) return `${asked}: ${scenario.name} keeps its server state in one process`;
  if (server.capabilities?.sharedPort !== true) {
    const why =
      server.runtime === 'node'
        ? ` (the net module of Node ${process.versions.node} cannot listen with SO_REUSEPORT; Node 22.12 and later can)`
        : '';
    return `${asked}: the ${server.name} server cannot share one port between processes${why}`;
  }
  return null;
}
