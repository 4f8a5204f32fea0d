/**
 * The package's sizes that the docs quote, measured rather than typed: the
 * tarball from what `npm pack --json` says of it, node_modules from a real
 * install of it. In the docs each figure sits between markers naming it,
 * `<!--size:nm-all-->376<!--/size-->` (an HTML comment, which the rendered
 * page does not show); scripts/package-size.mjs rewrites them and the
 * packaging tests check them.
 *
 * A figure is stale when it is more than FIGURE_TOLERANCE off the measurement
 * (or, for a node_modules row, more than 1 MiB when that is more). An ordinary
 * change (a source file, a page) moves the tarball by 1-2 % and the file count
 * by a few files, a dependency's patch release a node_modules row by a few
 * percent: none of that fails. What the docs must not do is drift the way
 * they did before this check (362 kB quoted, 984 kB shipped): 10 % is where a
 * reader's sense of the download or the disk it takes starts to be wrong.
 */
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PackSummary } from './packed-install.js';

/** How far a quoted figure may be from the measured one, as a share of the measured one. */
export const FIGURE_TOLERANCE = 0.1;
const MiB = 1024 * 1024;

/** How a figure is shown in the docs, read back, and how far off it may be (in its base unit: bytes or a count). */
interface FigureFormat {
  show(value: number): string;
  read(shown: string): number | null;
  slack(value: number): number;
}

/** Bytes the way npm prints a package's size: `984 kB`, `1.1 MB` (powers of 1000). */
const npmBytes: FigureFormat = {
  show: (bytes) => (bytes < 1e6 ? `${Math.round(bytes / 1e3)} kB` : `${(bytes / 1e6).toFixed(1)} MB`),
  read: (shown) => {
    const match = /^([\d.]+) (kB|MB)$/.exec(shown);
    return match ? Number(match[1]) * (match[2] === 'kB' ? 1e3 : 1e6) : null;
  },
  slack: (bytes) => bytes * FIGURE_TOLERANCE,
};

const count: FigureFormat = {
  show: (n) => String(n),
  read: (shown) => (/^\d+$/.test(shown) ? Number(shown) : null),
  slack: (n) => n * FIGURE_TOLERANCE,
};

/** Disk space in MiB (1024 x 1024 bytes), with `decimals` decimals; a row of a few MiB may be off by 1 MiB. */
const mebibytes = (decimals: number): FigureFormat => ({
  show: (bytes) => (bytes / MiB).toFixed(decimals),
  read: (shown) => (/^\d+(\.\d+)?$/.test(shown) ? Number(shown) * MiB : null),
  slack: (bytes) => Math.max(bytes * FIGURE_TOLERANCE, MiB),
});

/** Every figure the docs may quote. */
export const FIGURES: Readonly<Record<string, FigureFormat>> = {
  /** The .tgz `npm pack` writes. */
  tarball: npmBytes,
  /** Its files, unpacked. */
  unpacked: npmBytes,
  files: count,
  /** The figures and screenshots under docs/ that ship with the pages. */
  'docs-images': count,
  'docs-images-size': npmBytes,
  /** node_modules of a project that installed the tarball, and parts of it. */
  'nm-all': mebibytes(0),
  /** What `--omit=optional` leaves out, and what it leaves. */
  'nm-optional': mebibytes(0),
  'nm-omit': mebibytes(0),
  'nm-uws': mebibytes(1),
  'nm-bun': mebibytes(1),
  'nm-deno': mebibytes(1),
  'nm-vega': mebibytes(1),
  /** The builds vega and vega-lite ship of themselves (their build/ folders). */
  'nm-vega-builds': mebibytes(0),
  'nm-resvg': mebibytes(1),
  /** The @stdlib packages (the t quantile of the intervals and what it depends on), and how many there are. */
  'nm-stdlib': mebibytes(1),
  'nm-stdlib-packages': count,
  'nm-wsbench': mebibytes(1),
  /** node_modules but the rows above. */
  'nm-other': mebibytes(1),
};

/** The named rows of the install-size table: figure -> its folders under node_modules/. */
const INSTALL_ROWS: Readonly<Record<string, string[]>> = {
  'nm-uws': ['uWebSockets.js'],
  'nm-bun': ['@oven/bun-linux-x64'],
  'nm-deno': ['@deno/linux-x64-glibc'],
  'nm-vega': ['vega', 'vega-lite'],
  'nm-resvg': ['@resvg/resvg-js-linux-x64-gnu'],
  'nm-stdlib': ['@stdlib'],
  'nm-wsbench': ['wsbench'],
};

const IMAGE = /^docs\/.*\.(png|svg|jpe?g|gif|webp)$/;

/** The tarball's figures, from what `npm pack --json` (or `--dry-run --json`) says of it. */
export function packFigures(packed: PackSummary): Map<string, number> {
  const images = packed.files.filter((file) => IMAGE.test(file.path));
  return new Map([
    ['tarball', packed.size],
    ['unpacked', packed.unpackedSize],
    ['files', packed.entryCount],
    ['docs-images', images.length],
    ['docs-images-size', images.reduce((sum, file) => sum + file.size, 0)],
  ]);
}

/**
 * The disk space of everything under `path`, as `du` counts it: allocated blocks, each file once
 * however many links it has (`seen` carries that across calls), links themselves not followed.
 */
export function diskUsage(path: string, seen = new Set<string>()): number {
  const stat = lstatSync(path, { bigint: true });
  const id = `${stat.dev}:${stat.ino}`;
  if (seen.has(id)) return 0;
  seen.add(id);
  let bytes = Number(stat.blocks) * 512;
  if (stat.isDirectory()) for (const name of readdirSync(path)) bytes += diskUsage(join(path, name), seen);
  return bytes;
}

/** The node_modules figures of the project in `projectDir`, which installed the tarball with every dependency. */
export function installFigures(projectDir: string): Map<string, number> {
  const modules = join(projectDir, 'node_modules');
  const all = diskUsage(modules);
  const figures = new Map<string, number>([['nm-all', all]]);
  let named = 0;
  for (const [key, folders] of Object.entries(INSTALL_ROWS)) {
    const bytes = folders.reduce((sum, folder) => sum + diskUsage(join(modules, folder)), 0);
    figures.set(key, bytes);
    named += bytes;
  }
  figures.set('nm-other', all - named);
  figures.set('nm-stdlib-packages', readdirSync(join(modules, '@stdlib')).length);
  figures.set(
    'nm-vega-builds',
    diskUsage(join(modules, 'vega', 'build')) + diskUsage(join(modules, 'vega-lite', 'build')),
  );
  const optional = optionalPackages(projectDir).reduce((sum, path) => sum + diskUsage(join(projectDir, path)), 0);
  figures.set('nm-optional', optional);
  figures.set('nm-omit', all - optional);
  return figures;
}

/** The installed packages that are there only as optional dependencies, as npm's hidden lockfile marks them: what `--omit=optional` leaves out. */
function optionalPackages(projectDir: string): string[] {
  const lock = JSON.parse(readFileSync(join(projectDir, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, { optional?: boolean }>;
  };
  const paths = Object.entries(lock.packages)
    .filter(([, entry]) => entry.optional)
    .map(([path]) => path)
    .sort();
  // One nested in another is counted with it.
  return paths.filter((path, i) => !paths.slice(0, i).some((outer) => path.startsWith(`${outer}/`)));
}

/** A figure as a page quotes it. */
export interface QuotedFigure {
  /** The page, relative to the checkout. */
  page: string;
  line: number;
  key: string;
  shown: string;
}

const MARKER = /<!--size:([\w-]+)-->(.*?)<!--\/size-->/g;

/** README.md and every page under docs/ (recursively), as paths relative to `root`. */
export function pagesOf(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs.sort()];
}

/** Every marked figure of the pages of `root`. */
export function quotedFigures(root: string): QuotedFigure[] {
  return pagesOf(root).flatMap((page) =>
    readFileSync(join(root, page), 'utf8')
      .split('\n')
      .flatMap((text, index) =>
        [...text.matchAll(MARKER)].map((match) => ({ page, line: index + 1, key: match[1]!, shown: match[2]! })),
      ),
  );
}

/**
 * What is wrong with the quoted figures of `root` against `measured`: a figure more than its
 * tolerance off, a marker naming no known figure or holding no readable value. Figures not in
 * `measured` (node_modules ones when only the tarball was measured) are not judged.
 */
export function staleFigures(root: string, measured: Map<string, number>): string[] {
  const problems: string[] = [];
  for (const quoted of quotedFigures(root)) {
    const where = `${quoted.page}:${quoted.line}: ${quoted.key}`;
    const format = FIGURES[quoted.key];
    if (!format) {
      problems.push(`${where}: no such figure (known: ${Object.keys(FIGURES).join(', ')})`);
      continue;
    }
    const value = format.read(quoted.shown);
    if (value === null)
      problems.push(`${where}: "${quoted.shown}" is not a figure as it is shown (${format.show(1_234_567)})`);
    const actual = measured.get(quoted.key);
    if (value === null || actual === undefined) continue;
    if (Math.abs(value - actual) > format.slack(actual))
      problems.push(`${where}: says ${quoted.shown}, measured ${format.show(actual)}`);
  }
  return problems;
}

/** Rewrites every quoted figure of `root` that `measured` holds with its measured value; returns the pages changed. */
export function writeFigures(root: string, measured: Map<string, number>): string[] {
  const changed: string[] = [];
  for (const page of pagesOf(root)) {
    const path = join(root, page);
    const text = readFileSync(path, 'utf8');
    const updated = text.replace(MARKER, (marker, key: string) => {
      const value = measured.get(key);
      const format = FIGURES[key];
      return value === undefined || !format ? marker : `<!--size:${key}-->${format.show(value)}<!--/size-->`;
    });
    if (updated !== text) {
      writeFileSync(path, updated);
      changed.push(relative(root, path));
    }
  }
  return changed;
}
