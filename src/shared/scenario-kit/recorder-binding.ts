/**
 * `ctx.recorders`: the declared recorders of one half, made on first use. A recorder the code
 * never took is never made, so a metric that reads it is "not recorded" rather than a 0 nobody
 * counted; one it took and never fed is a measured 0 (or a histogram with no samples). A name
 * that was not declared (a JavaScript scenario's typo) fails with one line naming it.
 */
import type { Side } from '../types/declaration-types.js';
import type { MetricsApi, RecorderDeclarations } from '../types/recorder-types.js';

/** Property names a runtime asks any object for (promise checks, inspection): never a typo. */
const ASKED_BY_RUNTIME = new Set([
  'then',
  'toJSON',
  'constructor',
  'inspect',
  'nodeType',
  '$$typeof',
  'asymmetricMatch',
]);

export function bindRecorders(
  api: MetricsApi,
  declarations: RecorderDeclarations,
  side: Side,
): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  const mine = Object.entries(declarations).filter(([, d]) => d.side === side);
  for (const [name, declaration] of mine) {
    let made: unknown;
    Object.defineProperty(target, name, {
      enumerable: true,
      get() {
        made ??=
          declaration.recorder === 'counter'
            ? api.counter(name)
            : declaration.unit === 'bytes'
              ? api.sizeHistogram(name)
              : api.histogram(name);
        return made;
      },
    });
  }
  const names = mine.map(([name]) => name);
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object || ASKED_BY_RUNTIME.has(key))
        return Reflect.get(object, key, receiver);
      const elsewhere = declarations[key] ? ` (it is declared for the ${declarations[key]!.side} side)` : '';
      throw new Error(
        `ctx.recorders.${key} is not a declared ${side} recorder${elsewhere}; declared: ${names.join(', ') || 'none'}`,
      );
    },
  });
}
