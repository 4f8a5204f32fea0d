/**
 * The README and every page under docs/ link only to files that exist in the
 * repository, and every `#anchor` names a heading of its target as GitHub
 * slugs it; docs/README.md lists every page. Links with a scheme (https:, ...)
 * leave the repository and are not followed: the tests make no traffic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from './support.js';
import { anchors, documentationPages, linkProblem, links } from '../tools/markdown.js';

const DOCS = join(REPO_ROOT, 'docs');
const DOCS_INDEX = join(DOCS, 'README.md');

const pages = documentationPages(REPO_ROOT);
const shown = (file: string): string => relative(REPO_ROOT, file);

test('every relative link in README.md and docs/**/*.md names an existing file, and every #anchor a heading of its target', () => {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const link of links(readFileSync(page, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue;
      checked += 1;
      const problem = linkProblem(REPO_ROOT, page, link.target);
      if (problem) problems.push(`${shown(page)}:${link.line}: (${link.target}) ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(
    checked >= pages.length,
    `only ${checked} relative links in ${pages.length} pages: is the link reader broken?`,
  );
});

test('docs/README.md links every page under docs/', () => {
  const index = readFileSync(DOCS_INDEX, 'utf8');
  const linked = new Set(links(index).map((link) => resolve(DOCS, link.target.split('#')[0]!)));
  const unlisted = pages
    .filter((page) => page.startsWith(`${DOCS}${sep}`))
    .filter((page) => page !== DOCS_INDEX && !linked.has(page));
  assert.deepEqual(
    unlisted.map((page) => relative(DOCS, page).split(sep).join('/')),
    [],
  );
});

test('the anchors follow GitHub: code spans and punctuation dropped, repeats numbered', () => {
  const page =
    "# What `merge` refuses, and what it flags\n## The seeds' own Python servers\n## Stats (`GET /wsbench/stats?scenario=chat`)\n```sh\n# not a heading\n```\n## Stats\n## Stats\n";
  assert.deepEqual(
    [...anchors(page)],
    [
      'what-merge-refuses-and-what-it-flags',
      'the-seeds-own-python-servers',
      'stats-get-wsbenchstatsscenariochat',
      'stats',
      'stats-1',
    ],
  );
});
