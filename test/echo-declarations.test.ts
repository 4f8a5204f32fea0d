/**
 * echo is written per connection with declared recorders; the client(ctx)
 * form it was written in before (bench/echo-client-form.ts, the baseline the
 * bench measures it against) declares the same parameters, metrics (every key,
 * header, unit, role and source), table and charts: results read the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import echo from '../scenarios/echo.js';
import echoClientForm from '../bench/echo-client-form.js';
import { scenarioInfo } from '../src/engine/scenario-info.js';

test('echo per connection declares what echo as client(ctx) declared', () => {
  const { name: _a, ...perConnection } = scenarioInfo(echo);
  const { name: _b, ...clientForm } = scenarioInfo(echoClientForm);
  assert.deepEqual(perConnection, clientForm);
  assert.deepEqual(Object.keys(perConnection.metrics).sort(), Object.keys(clientForm.metrics).sort());
  assert.equal(
    echo.readyTimeoutMs?.({ connections: 2000 } as never),
    echoClientForm.readyTimeoutMs?.({ connections: 2000 } as never),
  );
});
