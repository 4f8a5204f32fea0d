/**
 * What makes two cells the same cell, in one result file or across several:
 * compare pairs cells by it, merge joins the shards' cells by it.
 */
import type { CellResult } from '../../shared/types/result-types.js';

/** Cells match on scenario, server, client and every parameter. */
export function cellKey(cell: CellResult): string {
  const params = Object.keys(cell.params)
    .sort()
    .map((k) => [k, cell.params[k]]);
  return JSON.stringify([cell.scenario, cell.server, cell.client, params]);
}
