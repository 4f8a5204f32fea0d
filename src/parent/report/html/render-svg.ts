/**
 * Vega-Lite spec -> SVG, headless (vega's 'none' renderer, no canvas, no DOM)
 * and offline: the specs carry their data inline, and the loader refuses to
 * fetch anything, so a spec that asked for a URL fails here instead of going
 * to the network. PNG goes through resvg, whose binary ships as an npm package.
 */
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import * as vega from 'vega';

/** Compiles a spec with vega-lite; throws on errors, returns the warnings. */
export function compileSpec(spec: TopLevelSpec): { vega: vega.Spec; warnings: string[] } {
  const warnings: string[] = [];
  const logger = {
    level(): number {
      return 0;
    },
    warn(...args: readonly unknown[]) {
      warnings.push(args.map(String).join(' '));
      return this;
    },
    info() {
      return this;
    },
    debug() {
      return this;
    },
    error(...args: readonly unknown[]): never {
      throw new Error(args.map(String).join(' '));
    },
  };
  // The logger type vega-lite wants is vega-util's; this object has its shape.
  const compiled = compile(spec, { logger: logger as unknown as NonNullable<Parameters<typeof compile>[1]>['logger'] });
  return { vega: compiled.spec, warnings };
}

/** A loader that never loads: every chart's data is inline. */
function offlineLoader(): vega.Loader {
  const loader = vega.loader();
  const refuse = async (uri: string): Promise<never> => {
    throw new Error(`wsbench charts load nothing (asked for ${uri})`);
  };
  loader.load = refuse;
  loader.sanitize = refuse;
  loader.http = refuse;
  loader.file = refuse;
  return loader;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const { vega: compiled } = compileSpec(spec);
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', loader: offlineLoader(), logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Pixel density of the PNG: 2x stays sharp when pasted into an issue. */
const PNG_ZOOM = 2;

/** SVG -> PNG with the system's fonts; fails with one line when resvg has no binary here. */
export async function renderPng(svg: string): Promise<Buffer> {
  let Resvg: typeof import('@resvg/resvg-js').Resvg;
  try {
    ({ Resvg } = await import('@resvg/resvg-js'));
  } catch (error) {
    throw new Error(
      `--png needs @resvg/resvg-js with a binary for ${process.platform}-${process.arch}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: PNG_ZOOM },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
