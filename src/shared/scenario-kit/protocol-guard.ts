/**
 * A server that breaks a scenario's wire protocol (docs/protocols/) fails the
 * cell with one line saying what it sent, instead of a crash inside a message
 * handler or numbers that look measured. The first violation closes the
 * client's window; the client half then calls `throwIfBroken()`, and the cell
 * fails with that reason, keeping what was measured until then.
 */
import type { MessageData } from '../types/adapter-types.js';
import type { ClientScenarioContext } from '../types/scenario-types.js';

const PREVIEW_CHARS = 60;

/**
 * Fails the cell with one line when the server breaks the scenario's wire protocol: `broken(expected, data)`, then
 * `throwIfBroken()`.
 */
export class ProtocolGuard {
  private violation: string | null = null;

  constructor(
    private readonly ctx: Pick<ClientScenarioContext, 'done'>,
    private readonly scenario: string,
  ) {}

  /** Records the first violation (`expected` says what the protocol wanted) and ends the window. */
  broken(expected: string, data: MessageData): void {
    if (this.violation !== null) return;
    this.violation = `${this.scenario}: the server broke the protocol: expected ${expected}, got ${preview(data)}`;
    this.ctx.done();
  }

  get ok(): boolean {
    return this.violation === null;
  }

  throwIfBroken(): void {
    if (this.violation !== null) throw new Error(this.violation);
  }
}

/** JSON.parse that returns undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function preview(data: MessageData): string {
  if (typeof data === 'string') return `${quoted(data)} (${data.length} chars)`;
  // Text handed over as bytes (textAsBytes) reads best as text; other bytes by their count.
  const text = utf8OrNull(data);
  return text === null ? `${data.byteLength} binary bytes` : `${quoted(text)} (${data.byteLength} bytes)`;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}...` : text);
}

function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
