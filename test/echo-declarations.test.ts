/**
 * echo is written per connection with declared recorders; the client(ctx)
 * form it was written in before (bench/echo-client-form.ts, the baseline the
 * bench measures its closed loop against) is the closed loop alone. Every
 * parameter the old form declares, echo declares with the same kind, default
 * and bounds, and every metric the same key, header, unit, role and source,
 * and they show the same table: the bench's two results read the same. What
 * echo adds (the open model's parameters and metrics) the old form lacks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import echo from '../scenarios/echo.js';
import echoClientForm from '../bench/echo-client-form.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';

test("echo per connection declares every parameter and metric of echo's client(ctx) form, the same way", () => {
  const perConnection = scenarioInfo(echo);
  const clientForm = scenarioInfo(echoClientForm);
  for (const [name, { description: _d, ...declared }] of Object.entries(clientForm.parameters)) {
    const { description: _e, ...ours } =
      perConnection.parameters[name] ?? ({} as typeof declared & { description: string });
    assert.deepEqual(ours, declared, `parameter ${name}`);
  }
  for (const [key, { description: _d, ...declared }] of Object.entries(clientForm.metrics)) {
    const { description: _e, ...ours } =
      perConnection.metrics[key] ?? ({} as typeof declared & { description: string });
    assert.deepEqual(ours, declared, `metric ${key}`);
  }
  assert.deepEqual(perConnection.table, clientForm.table);
  assert.equal(
    echo.readyTimeoutMs?.({ connections: 2000 } as never),
    echoClientForm.readyTimeoutMs?.({ connections: 2000 } as never),
  );
});
