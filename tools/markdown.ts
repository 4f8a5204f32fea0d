/**
 * Just enough Markdown for the docs tests: fenced blocks, headings with the
 * anchors GitHub gives them, the links of a page and whether each resolves.
 * Text inside fences and code spans is never a heading or a link, as GitHub
 * renders it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface FencedBlock {
  /** The info string after the opening fence (`sh`, `ts`, or empty). */
  info: string;
  /** The lines between the fences. */
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface MarkdownLink {
  target: string;
  /** 1-based line the link starts on. */
  line: number;
}

interface Line {
  text: string;
  number: number;
}

interface OpenFence {
  fence: string;
  info: string;
  line: number;
  indent: number;
  body: string[];
}

/** Splits a page into its fenced blocks and the lines outside them. */
function split(markdown: string): { prose: Line[]; blocks: FencedBlock[] } {
  const prose: Line[] = [];
  const blocks: FencedBlock[] = [];
  let open: OpenFence | null = null;
  markdown.split('\n').forEach((text, index) => {
    const number = index + 1;
    // Fences may be indented (inside a list item); a closing fence is at least as long as the opening one.
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(text);
    if (open) {
      if (fence && fence[2]![0] === open.fence[0] && fence[2]!.length >= open.fence.length && fence[3] === '') {
        blocks.push({ info: open.info, body: open.body.join('\n'), line: open.line });
        open = null;
      } else {
        const indent = text.length - text.trimStart().length;
        open.body.push(text.slice(Math.min(indent, open.indent)));
      }
    } else if (fence) {
      open = { fence: fence[2]!, info: fence[3]!, line: number, indent: fence[1]!.length, body: [] };
    } else {
      prose.push({ text, number });
    }
  });
  return { prose, blocks };
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  return split(markdown).blocks;
}

/** Code spans removed, so that `[x](y)` inside backticks is not taken for a link. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
}

/** The text GitHub shows for a heading: code spans keep their content, links their text. */
function headingText(raw: string): string {
  return raw
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '');
}

/**
 * GitHub's anchor for a heading (github-slugger): lower case; punctuation but
 * `_` and `-`, symbols, other numbers (², ½) and separators but the space
 * dropped; spaces to hyphens.
 */
export function slug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A heading outside fences: its level (1 for `#`), its text as GitHub shows it, its 1-based line. */
export interface Heading {
  level: number;
  text: string;
  line: number;
}

export function headings(markdown: string): Heading[] {
  return split(markdown).prose.flatMap(({ text, number }) => {
    const heading = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    return heading ? [{ level: heading[1]!.length, text: headingText(heading[2]!), line: number }] : [];
  });
}

/** Every anchor of a page, repeats numbered the way GitHub numbers them (`x`, `x-1`, `x-2`). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const { text } of split(markdown).prose) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) and reference definitions. */
export function links(markdown: string): MarkdownLink[] {
  const prose = split(markdown).prose;
  const found: MarkdownLink[] = [];
  // Links may wrap over lines: read the prose as one text and map offsets back to lines.
  const text = prose.map((line) => withoutCodeSpans(line.text)).join('\n');
  const lineAt = (offset: number): number => prose[text.slice(0, offset).split('\n').length - 1]!.number;
  const inline = /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
  for (const match of text.matchAll(inline)) {
    found.push({ target: match[1]!.replace(/^<|>$/g, ''), line: lineAt(match.index!) });
  }
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) {
    found.push({ target: match[1]!, line: lineAt(match.index!) });
  }
  return found;
}

/**
 * Why `target`, linked from `page`, does not resolve inside the tree at `root`
 * (a checkout, or an installed package); null when it does.
 */
export function linkProblem(root: string, page: string, target: string): string | null {
  const top = root.replace(/\/$/, '');
  const shown = (file: string): string => relative(top, file);
  const hashAt = target.indexOf('#');
  const path = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? null : decodeURIComponent(target.slice(hashAt + 1));
  // On GitHub a leading / is the repository's root.
  const file = path === '' ? page : path.startsWith('/') ? join(top, path) : resolve(dirname(page), path);
  if (file !== top && !file.startsWith(`${top}/`)) return `${shown(file)} is outside ${top}`;
  if (!existsSync(file)) return `${shown(file)} does not exist`;
  if (anchor === null) return null;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return `#${anchor} points into ${shown(file)}, which has no headings`;
  if (!anchors(readFileSync(file, 'utf8')).has(anchor)) return `${shown(file)} has no heading #${anchor}`;
  return null;
}

/** README.md and every page under docs/ of the tree at `root`, as absolute paths. */
export function documentationPages(root: string): string[] {
  const docs = join(root, 'docs');
  const pages = readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docs, name))
    .sort();
  return [join(root, 'README.md'), ...pages];
}
