/** The CellServer for a foreign server: a running target or a command to start. */
import type { ParamValues } from '../../declaration-types.js';
import type { CellServer, ForeignServerSpec } from './types.js';
import { TargetServer } from './target.js';
import { CommandServer } from './command.js';
import type { CellTls } from '../run-tls.js';

export function foreignServer(spec: ForeignServerSpec, cell: { host: string; scenario: string; params: ParamValues; tls?: CellTls }): CellServer {
  return spec.kind === 'target' ? new TargetServer(spec, cell) : new CommandServer(spec, cell);
}
