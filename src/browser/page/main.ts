/**
 * The page's entry. It opens the control WebSocket to its client process,
 * answers clock probes, then imports the scenario module and runs its client
 * half with a ctx of the page (page-context.ts). The page does its own timing;
 * the client process only keeps the books.
 */
import './node-globals.js';
import { isScenario, type AnyScenario } from '../../shared/types/scenario-types.js';
import { CONTROL_PATH, type FromPage, type PageStart, type ToPage } from '../../shared/browser-bridge.js';
import { pageContext } from './page-context.js';
import { page, pageUs } from './page-globals.js';

const query = new URLSearchParams(page.location.search);
// The page's server keeps everything below one random path: the control socket too.
const base = page.location.pathname.slice(0, page.location.pathname.lastIndexOf('/'));
const control = new page.WebSocket(`ws://${page.location.host}${base}${CONTROL_PATH}?${query.toString()}`);
const send = (message: FromPage): void => {
  if (control.readyState === 1) control.send(JSON.stringify(message));
};
let receive: ((message: ToPage) => void) | null = null;

control.addEventListener('open', () => {
  send({
    t: 'hello',
    page: Number(query.get('page')),
    userAgent: page.navigator.userAgent,
    timerResolutionUs: timerResolutionUs(),
    crossOriginIsolated: page.crossOriginIsolated === true,
  });
});
control.addEventListener('message', (event) => {
  const message = JSON.parse(event.data as string) as ToPage;
  // Answered first, before anything else: the probe's round trip bounds the clock offset.
  if (message.t === 'probe') return send({ t: 'clock', id: message.id, pageUs: pageUs() });
  if (message.t === 'start') return void run(message);
  receive?.(message);
});

async function run(start: PageStart): Promise<void> {
  const { ctx, receive: handle, flush, timerLateness } = pageContext(start, { send });
  receive = handle;
  try {
    const scenario = await importScenario(start.scenarioPath, start.scenarioName);
    await scenario.client(ctx);
    flush();
    send({ t: 'finished', timerLatenessMs: timerLateness() });
  } catch (error) {
    flush();
    send({ t: 'failed', reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]! });
  }
}

async function importScenario(path: string, name: string): Promise<AnyScenario> {
  let module: Record<string, unknown>;
  try {
    module = (await import(path)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`the page could not load the scenario module: ${(error as Error).message}`);
  }
  const found = Object.values(module)
    .filter(isScenario)
    .find((s) => s.name === name);
  if (!found) throw new Error(`the scenario module exports no scenario "${name}"`);
  return found;
}

/** The smallest step of performance.now() on this page, in µs (browsers coarsen it: 5 µs when cross-origin isolated, 100 µs otherwise). */
function timerResolutionUs(): number {
  let smallest = Number.POSITIVE_INFINITY;
  let last = performance.now();
  const until = last + 2;
  for (let now = last; now < until; now = performance.now()) {
    if (now > last) {
      smallest = Math.min(smallest, now - last);
      last = now;
    }
  }
  return Math.round(smallest * 1000 * 10) / 10;
}
