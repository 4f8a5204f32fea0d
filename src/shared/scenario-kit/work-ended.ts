/**
 * The errors that end a connection's work quietly in the per-connection form:
 * a send on a connection that is gone (the engine counted the loss), and a
 * request refused once the window closed or the tracker ended. Anything else a
 * scenario throws is its own fault, and fails the cell.
 */
import { RequestsEnded } from './request-tracker.js';

/** Thrown by a send on a connection that is gone: that connection's work ends, quietly (the engine counted the loss). */
export class ConnectionGone extends Error {}

export function endsQuietly(error: unknown): boolean {
  return error instanceof ConnectionGone || error instanceof RequestsEnded;
}
