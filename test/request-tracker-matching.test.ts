/**
 * The request tracker's three ways to match a reply: by id, by a predicate,
 * and in the order sent; a reply after the window is late (neither timed nor
 * answered), a late reply to a request already counted missing is not also
 * wrong, and ending the tracker makes what is in flight missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { Requests } from '../src/shared/scenario-kit/index.js';
import { sleep } from '../src/shared/scenario-kit/waiting.js';

function tracker(timeoutMs = 0) {
  const registry = new MetricsRegistry();
  const window = new AbortController();
  const sent: string[] = [];
  const counters = {
    answered: registry.counter('answered'),
    wrong: registry.counter('wrong'),
    missing: registry.counter('missing'),
    late: registry.counter('late'),
  };
  const requests = new Requests(
    { send: (data) => void sent.push(String(data)), nowUs: () => performance.now() * 1000, signal: window.signal },
    { timeoutMs, time: registry.histogram('rtt'), ...counters },
  );
  const counts = (): Record<string, number> =>
    Object.fromEntries(Object.entries(counters).map(([k, c]) => [k, c.value()]));
  return { requests, sent, window, counts };
}

test('in order, by predicate and by id; a reply to nothing is wrong; the end makes the rest missing', async () => {
  const { requests, counts } = tracker();
  const first = requests.send('a', { check: (r) => r.n === 1 });
  const second = requests.send('b', { match: (r) => r.to === 'b' });
  const third = requests.send('c', { id: 7 });
  assert.equal(requests.sort(JSON.stringify({ id: 7 })), 'answered');
  assert.equal(requests.sort(JSON.stringify({ to: 'b' })), 'answered'); // the predicate's, though the request in order is older
  assert.equal(requests.sort(JSON.stringify({ n: 2 })), 'answered'); // the oldest in order, and a wrong answer
  assert.equal(requests.sort('not json'), 'other');
  assert.deepEqual(await Promise.all([first, second, third]), [null, { to: 'b' }, { id: 7 }]);
  assert.equal(requests.sort(JSON.stringify({ id: 8 })), 'stray');
  const fourth = requests.send('d', { id: 9 });
  requests.end();
  assert.equal(await fourth, null);
  await assert.rejects(requests.send('e'), /the connection closed/);
  assert.deepEqual(counts(), { answered: 2, wrong: 1, missing: 1, late: 0 });
});

test('after the window a reply is late and sends are refused; a timed-out request is missing, its late reply not wrong', async () => {
  const { requests, window, counts } = tracker(30);
  const timedOut = requests.send('x', { id: 1 });
  assert.equal(await timedOut, null);
  assert.equal(
    requests.sort(JSON.stringify({ id: 1 })),
    'answered',
    'a late reply to a missing request is taken, not stray',
  );
  const inFlight = requests.send('y', { id: 2 });
  window.abort();
  assert.equal(requests.sort(JSON.stringify({ id: 2 })), 'answered');
  assert.equal(await inFlight, null);
  await assert.rejects(requests.send('z'), /the window closed/);
  await sleep(1);
  assert.deepEqual(counts(), { answered: 0, wrong: 0, missing: 1, late: 1 });
});
