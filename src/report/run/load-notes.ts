/**
 * What the load model of the cells shown means for their numbers, said once
 * under the table (docs/load-models.md): a closed loop's latency cannot count
 * a stall for every message that would have waited through it; an open
 * model's is timed from each message's due time, and its sends' lag is shown
 * where they fell behind.
 */
import { isMeasured, type CellResult } from '../../result-types.js';
import { scheduleSummary } from '../../measure/send-schedule.js';

const CLOSED =
  'closed loop: each connection waits for its replies before it sends again, so the load is what the server lets through, and a stall counts once per connection, not once for every message that would have waited (coordinated omission): --rate R sends at a rate whatever comes back (docs/load-models.md)';
const OPEN =
  "open model: every message went out when it was due, whatever came back, and its latency counts from that due time (the service time, from the actual send, is in the JSON); Node's timers add up to about 1 ms to it";

export function loadModelNotes(cells: readonly CellResult[], label: (cell: CellResult) => string): string[] {
  const models = new Set(cells.map((c) => c.load?.model));
  const lines = [...(models.has('closed') ? [CLOSED] : []), ...(models.has('open') ? [OPEN] : [])];
  for (const cell of cells) {
    if (!isMeasured(cell)) continue;
    const schedule = scheduleSummary(cell.measurements);
    if (!schedule || (schedule.late === 0 && schedule.missed === 0)) continue;
    const worst = schedule.worstLagMs === null ? '' : `, worst ${schedule.worstLagMs} ms late`;
    lines.push(
      `  ${label(cell)}: ${schedule.late} of ${schedule.sent} sends late${worst}${schedule.missed > 0 ? `, ${schedule.missed} due never sent` : ''}`,
    );
  }
  return lines.length > 0 ? ['', ...lines] : [];
}
