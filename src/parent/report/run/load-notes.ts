/**
 * What the load model of the cells shown means for their numbers, said once
 * under the table (docs/load-models.md): a closed loop's latency cannot count
 * a stall for every message that would have waited through it; an open
 * model's is timed from each message's due time, and its sends' lag is shown
 * where they fell behind.
 */
import { isMeasured, type CellResult, type ScenarioInfo } from '../../../shared/types/result-types.js';
import { LATE_SEND_MS, LATE_SHARE_SHOWN } from '../../../shared/measure/send-schedule.js';
import { scheduleSummary } from '../../measure/schedule-lag.js';
import { belowOffered, deliveredMetric, DELIVERED_SHARE } from '../../measure/offered-load.js';

const CLOSED =
  'closed loop: each connection waits for its replies before it sends again, so the load is what the server lets through, and a stall counts once per connection, not once for every message that would have waited (coordinated omission): --rate R sends at a rate whatever comes back (docs/load-models.md)';
const OPEN =
  "open model: every message went out when it was due, whatever came back, and its latency counts from that due time (the service time, from the actual send, is in the JSON); Node's timers add up to about 1 ms to it";

export function loadModelNotes(
  scenario: ScenarioInfo,
  cells: readonly CellResult[],
  label: (cell: CellResult) => string,
): string[] {
  const models = new Set(cells.map((c) => c.load?.model));
  const lines = [...(models.has('closed') ? [CLOSED] : []), ...(models.has('open') ? [OPEN] : [])];
  const delivered = deliveredMetric(scenario.metrics);
  const short = cells.flatMap((cell) => {
    const below = belowOffered(cell, delivered);
    return below
      ? [`  ${label(cell)}: ${Math.round(below.deliveredPerSec)}/s of ${below.offeredPerSec}/s offered`]
      : [];
  });
  if (short.length > 0)
    lines.push(
      `below offered: these cells delivered less than ${Math.round(DELIVERED_SHARE * 100)} % of the rate they were offered, so messages queued and latency grew with the window (past the stack's capacity, or a generator behind):`,
      ...short,
    );
  const late = cells.flatMap((cell) => {
    const schedule = isMeasured(cell) ? scheduleSummary(cell.measurements) : null;
    if (!schedule || (schedule.late <= LATE_SHARE_SHOWN * schedule.sent && schedule.missed === 0)) return [];
    const worst = schedule.worstLagMs === null ? '' : `, worst ${schedule.worstLagMs} ms late`;
    const missed = schedule.missed > 0 ? `, ${schedule.missed} due never sent` : '';
    return [`  ${label(cell)}: ${schedule.late} of ${schedule.sent} sends late${worst}${missed}`];
  });
  if (late.length > 0)
    lines.push(
      `sends more than ${LATE_SEND_MS} ms after their due time (over ${LATE_SHARE_SHOWN * 100} % of a cell's), or never sent:`,
      ...late,
    );
  return lines.length > 0 ? ['', ...lines] : [];
}
