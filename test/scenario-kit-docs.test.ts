/**
 * docs/writing-a-scenario.md documents the kit (`wsbench/scenario`) member by
 * member, and cannot drift from it: read with the TypeScript checker, every
 * member of each type the page has a section for (contexts, connection
 * options, recorders...), every chart kind with its fields, and every function
 * and constant the kit exports are on the page, one line each, and the page
 * names nothing the kit does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './support.js';

const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));
const PAGE = readFileSync(join(SOURCE_ROOT, 'docs', 'writing-a-scenario.md'), 'utf8');
/** The sections the page must have: what a scenario file works with. */
const REQUIRED = [
  'ScenarioDefinition',
  'ServerScenarioContext',
  'ServerLogic',
  'ClientScenarioContext',
  'ScenarioConnectOptions',
  'ClientConnection',
  'Recorder',
  'SizeRecorder',
  'Counter',
];
const CHARTS = 'Chart kinds (`ChartRequest`)';
const FUNCTIONS = 'Functions and constants';

/** The page's `### ` sections, each with its `- ` lines. */
function sections(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of PAGE.split('\n')) {
    if (line.startsWith('## ')) current = null;
    else if (line.startsWith('### ')) found.set(line.slice(4).trim(), (current = []));
    else if (current && line.startsWith('- ')) current.push(line.slice(2));
  }
  return found;
}

/** The first name a line documents: `ctx.connect(options)` -> connect; `recordBytes(bytes)` -> recordBytes. */
const nameOf = (line: string): string => /^`(?:ctx\.)?([\w-]+)/.exec(line)?.[1] ?? `(no name in: ${line})`;

/** The kit as the checker sees it: its exports, resolved. */
function kit() {
  const entry = join(SOURCE_ROOT, 'src', 'shared', 'scenario-kit', 'index.ts');
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exports = checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)
    .map((symbol) => ({
      name: symbol.name,
      symbol: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    }));
  const typeOf = (name: string): ts.Type | undefined => {
    const found = exports.find(
      (e) => e.name === name && e.symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias),
    );
    return found ? checker.getDeclaredTypeOfSymbol(found.symbol) : undefined;
  };
  // Public members only: the brand symbol a Scenario carries is not a member anyone writes.
  const members = (type: ts.Type): string[] =>
    checker
      .getPropertiesOfType(type)
      .map((p) => p.name)
      .filter((name) => !name.startsWith('__'));
  return { checker, exports, typeOf, members };
}

const { checker, exports, typeOf, members } = kit();
const page = sections();

function differences(what: string, inCode: string[], onPage: string[]): string[] {
  return [
    ...inCode.filter((name) => !onPage.includes(name)).map((name) => `${what}: ${name} is not on the page`),
    ...onPage
      .filter((name) => !inCode.includes(name))
      .map((name) => `${what}: the page names ${name}, which the kit does not have`),
  ];
}

test('every member of each documented type, and nothing else, one line each', () => {
  const problems: string[] = [];
  for (const name of REQUIRED)
    if (![...page.keys()].some((title) => title.startsWith(`\`${name}\``))) problems.push(`no section for ${name}`);
  for (const [title, lines] of page) {
    const typeName = /^`(\w+)`/.exec(title)?.[1];
    if (typeName === undefined) continue;
    const type = typeOf(typeName);
    if (!type) {
      problems.push(`section ${title}: wsbench/scenario exports no type ${typeName}`);
      continue;
    }
    const documented = lines.map(nameOf);
    problems.push(...differences(typeName, members(type), documented));
    const twice = documented.filter((name, i) => documented.indexOf(name) !== i);
    if (twice.length) problems.push(`${typeName}: ${twice.join(', ')} documented twice`);
  }
  assert.deepEqual(problems, []);
});

test('every chart kind with every field it takes', () => {
  const union = typeOf('ChartRequest');
  assert.ok(union?.isUnion(), 'ChartRequest is a union of kinds');
  const lines = page.get(CHARTS) ?? [];
  const problems: string[] = [];
  const kinds = union.types.map((member) => ({
    kind: kindOf(member) ?? '?',
    fields: members(member).filter((name) => name !== 'kind'),
  }));
  problems.push(
    ...differences(
      'chart kind',
      kinds.map((k) => k.kind),
      lines.map(nameOf),
    ),
  );
  for (const { kind, fields } of kinds) {
    const line = lines.find((l) => nameOf(l) === kind) ?? '';
    for (const field of fields)
      if (!line.includes(`\`${field}\``)) problems.push(`chart kind ${kind}: field ${field} is not on its line`);
  }
  assert.deepEqual(problems, []);
});

test('every function and constant the kit exports', () => {
  const values = exports.filter((e) => e.symbol.flags & ts.SymbolFlags.Value).map((e) => e.name);
  assert.ok(values.includes('latencyMetrics') && values.includes('defineScenario'));
  assert.deepEqual(differences('export', values, (page.get(FUNCTIONS) ?? []).map(nameOf)), []);
});

test("the page says what users tripped on: recordBytes, the sizes chart's singular histogram, onUnexpectedClose's default, where the file lives", () => {
  assert.match(PAGE, /`recordBytes\(bytes\)`/);
  assert.match(PAGE, /- `sizes`: `histogram` \(one size histogram, singular/);
  assert.match(PAGE, /- `onUnexpectedClose\(reason\)`: optional; by default wsbench counts a close/);
  assert.match(PAGE, /## Where the file lives, and how it finds wsbench/);
});

/** The string literal a union member's `kind` has. */
function kindOf(member: ts.Type): string | undefined {
  const kind = member.getProperty('kind');
  if (!kind?.valueDeclaration) return undefined;
  const type = checker.getTypeOfSymbolAtLocation(kind, kind.valueDeclaration);
  return type.isStringLiteral() ? type.value : undefined;
}
