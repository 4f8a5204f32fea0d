/**
 * This client process's part of a cell's connections, and the loopback source
 * address each one connects from, so that many connections do not run out of
 * one address's local ports.
 */
import type { ClientScenarioContext } from '../../types/scenario-types.js';
import { sourceAddressCount, sourceAddressFor } from '../source-addresses.js';

export interface ConnectionShare {
  /** Connections this process opens. */
  count: number;
  /** Index, over the whole cell, of the first of them. */
  first: number;
  /** ctx.connect() options that open the cell's connection `index` from its source address (none when there is only the default). */
  sourceOf(index: number): { localAddress?: string };
}

/** This client process's part of the cell's `connections`, and the loopback source address each connects from. */
export function connectionShare(
  ctx: Pick<ClientScenarioContext, 'share' | 'firstOfShare'>,
  connections: number,
  sourceAddresses: number,
): ConnectionShare {
  const addresses = sourceAddressCount(connections, sourceAddresses);
  return {
    count: ctx.share(connections),
    first: ctx.firstOfShare(connections),
    sourceOf(index) {
      const localAddress = sourceAddressFor(index, addresses);
      return localAddress ? { localAddress } : {};
    },
  };
}
