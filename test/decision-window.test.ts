/**
 * Until decided, a run given no window measures its rounds in 1 s windows where
 * the scenario's window is its duration (src/parent/engine/decision-window.ts): the
 * budget buys more paired rounds. A window given by flag or preset stays, and
 * so does a scenario whose duration is something else than its window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import echo from '../scenarios/echo.js';
import fanout from '../scenarios/fanout.js';
import idle from '../scenarios/idle.js';
import { DECISION_WINDOW_MS, decisionWindowNote, withDecisionWindow } from '../src/parent/engine/decision-window.js';
import { planRun } from '../src/parent/run.js';

test('until decided with no window: echo measures 1 s windows; a given --duration, a preset with one, or no --until-decided keep theirs', () => {
  assert.deepEqual(withDecisionWindow(echo, {}, undefined, true), { duration: DECISION_WINDOW_MS });
  assert.deepEqual(withDecisionWindow(echo, { connections: 4 }, undefined, true), {
    connections: 4,
    duration: DECISION_WINDOW_MS,
  });
  assert.deepEqual(withDecisionWindow(echo, { duration: '3s' }, undefined, true), { duration: '3s' });
  assert.deepEqual(withDecisionWindow(echo, {}, 'quick', true), {});
  assert.deepEqual(withDecisionWindow(echo, {}, undefined, false), {});
  // A message count ends echo's window, not the duration: nothing to shorten.
  assert.deepEqual(withDecisionWindow(echo, { messages: 100 }, undefined, true), { messages: 100 });
});

test('until decided: a scenario whose duration is not its window keeps it; one already at 1 s or whose minimum forbids less keeps it', () => {
  // fanout's duration is how long each step streams; its clients end the window.
  assert.deepEqual(withDecisionWindow(fanout, {}, undefined, true), {});
  // idle's window is its duration, at least 1 s: already no longer than the decision window's.
  assert.deepEqual(withDecisionWindow(idle, { duration: '1s' }, undefined, true), { duration: '1s' });
  const idleDefault = withDecisionWindow(idle, {}, undefined, true);
  assert.ok(
    idleDefault.duration === undefined || idleDefault.duration === DECISION_WINDOW_MS,
    JSON.stringify(idleDefault),
  );
});

test('the plan of a run until decided says its windows were shortened, and a plan given --duration does not', async () => {
  const short = await planRun({
    scenario: 'echo',
    servers: ['ws'],
    clients: ['ws'],
    untilDecided: { budgetMs: 60_000 },
  });
  assert.ok(short.paramSets.every((set) => set.duration === DECISION_WINDOW_MS));
  assert.ok(short.warnings.includes(decisionWindowNote()), short.warnings.join('\n'));
  const given = await planRun({
    scenario: 'echo',
    servers: ['ws'],
    clients: ['ws'],
    params: { duration: '2s' },
    untilDecided: { budgetMs: 60_000 },
  });
  assert.ok(given.paramSets.every((set) => set.duration === 2000));
  assert.ok(!given.warnings.includes(decisionWindowNote()));
});
