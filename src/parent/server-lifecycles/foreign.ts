/** The CellServer for a foreign server: a running target or a command to start. */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { CellServer, CellTls, ForeignServerSpec } from './types.js';
import { TargetServer } from './target.js';
import { CommandServer } from './command.js';

export function foreignServer(
  spec: ForeignServerSpec,
  cell: {
    host: string;
    scenario: string;
    params: ParamValues;
    tls?: CellTls;
    serverMetrics?: boolean;
    subprotocols?: string[];
  },
): CellServer {
  return spec.kind === 'target' ? new TargetServer(spec, cell) : new CommandServer(spec, cell);
}
