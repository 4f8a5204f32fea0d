/**
 * The README's sample of the quick suite (bare `npx wsbench`): real output of
 * this checkout on a real machine, made and rewritten by
 * scripts/readme-sample.mjs between `<!--readme-sample-->` markers (HTML
 * comments, not shown on the rendered page), and the shape a fresh run's
 * output must share with it (readme-sample.test.ts): the same lines of
 * description, parameters, table header, legends and sections, and rows with
 * the header's columns. Numbers are never compared: they are the machine's.
 */

export const SAMPLE_START = '<!--readme-sample-->';
export const SAMPLE_END = '<!--/readme-sample-->';

/** What the sample says of the machine and the run, beside the output. */
export interface SampleFacts {
  /** The run's result file (its `environment` names the machine and the stacks). */
  result: {
    environment: {
      node: string;
      osName?: string;
      cpuModel: string;
      cpuCores: number;
      totalMemoryBytes: number;
      stacks: Array<{
        name: string;
        availability: { available: boolean; version?: string; build?: { binary?: string } };
      }>;
    };
  };
  /** How long the command took, start to exit (charts and report included). */
  elapsedMs: number;
  /** The machine's 1-minute load average when the run started and when it ended. */
  loadBefore: number;
  loadAfter: number;
}

/** The text between the markers: the command's stdout as a fenced block, then the paragraph that says where it ran. */
export function sampleText(stdout: string, facts: SampleFacts): string {
  const env = facts.result.environment;
  const gib = Math.round(env.totalMemoryBytes / 1024 ** 3);
  const stacks = new Map<string, string>();
  for (const stack of env.stacks) {
    const { available, version, build } = stack.availability;
    if (!available || !version || stacks.has(stack.name)) continue;
    stacks.set(stack.name, `${stack.name} ${version}${build?.binary ? ` (${build.binary})` : ''}`);
  }
  const paragraph = wrapped(
    `Printed by \`node scripts/readme-sample.mjs\` (which runs bare \`npx wsbench\` and rewrites this sample), in ` +
      `${Math.round(facts.elapsedMs / 1000)} s with charts and report, on a ${env.cpuCores}-vCPU, ${gib} GiB ` +
      `${env.osName ?? 'Linux'} machine whose CPU reports as "${env.cpuModel}", Node ${env.node}, loopback only; ` +
      `load average ${facts.loadBefore.toFixed(2)} when it started and ${facts.loadAfter.toFixed(2)} when it ended ` +
      `(1 minute; other work shared the machine). Stacks: ${[...stacks.values()].join(', ')}.`,
  );
  return `\n\`\`\`\n${stdout.trimEnd()}\n\`\`\`\n\n${paragraph}\n`;
}

/** `text` as lines of at most `width` characters (a word longer than that stands alone), as the README's prose is kept. */
export function wrapped(text: string, width = 88): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** The README's sample: the output block's lines and the paragraph after it; throws when the markers or the block are missing. */
export function readmeSample(readme: string): { block: string[]; paragraph: string } {
  const start = readme.indexOf(SAMPLE_START);
  const end = readme.indexOf(SAMPLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${SAMPLE_START} ... ${SAMPLE_END}`);
  const text = readme.slice(start + SAMPLE_START.length, end);
  const fenced = /^\n```\n([\s\S]*?)\n```\n\n([\s\S]*)$/.exec(text);
  if (!fenced) throw new Error('the sample is not a ``` block and a paragraph after it');
  return { block: fenced[1]!.split('\n'), paragraph: fenced[2]!.trim() };
}

/** The README with `text` between the markers. */
export function withSample(readme: string, text: string): string {
  const start = readme.indexOf(SAMPLE_START);
  const end = readme.indexOf(SAMPLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${SAMPLE_START} ... ${SAMPLE_END}`);
  return `${readme.slice(0, start + SAMPLE_START.length)}${text}${readme.slice(end)}`;
}

/** Lines every quick-suite output has, in this order, the same text whatever the machine measured. */
const ANCHORS: Array<[string, RegExp]> = [
  ['the scenario line', /^echo: /],
  ['the parameters line', /^every cell: /],
  ['the table header', /^server\s+client\s+status\s/],
  ['the ok legend', /^status ok: /],
  // 95 %, or the share of it a quick suite's last look was stated at (--until-decided).
  ['the interval legend', /^±\s+the \d+(\.\d)? % confidence interval/],
  ['the what-to-pick heading', /^what to pick /],
  ['the rounds footnote', /^every number pools all \d+ interleaved rounds/],
];

/**
 * A table cell: a stack, a status, a number with its interval (`0.043 ±0.002`, `27469 [16557, 45573]`), a dash,
 * or a bound for a value below its resolution (`< 7296`: a server's memory per connection on a busy machine).
 */
const NUMBER_CELL = /^(-?\d+(\.\d+)?( ±\d+(\.\d+)?| \[-?\d+(\.\d+)?, -?\d+(\.\d+)?\])?|-|< \d+(\.\d+)?)$/;
const STATUS_CELL = /^(ok|errors|failed)(, [a-z ]+)*$/;

/**
 * An anchor line as the sample and a fresh run must both word it: its columns, without the ok legend's
 * exception, which a run adds only when its table shows a value n/a or - (a busy machine's run may, the
 * sample's may not).
 */
function comparable(line: string): string {
  return columns(line)
    .join('  ')
    .replace(/ but for the values shown n\/a or - \(why is listed above\)$/, '');
}

/** Columns are set apart by two spaces or more; inside one (`p50 ms`, `0.04 ±0.01`, `ok, unstable`) by one. */
function columns(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}

/** Why `lines` (an output of the quick suite) breaks the shape its table and anchors must have; empty when it does not. */
export function tableProblems(lines: string[], what: string): string[] {
  const problems: string[] = [];
  const at = lines.findIndex((line) => ANCHORS[2]![1].test(line));
  if (at < 0) return [`${what}: no table header`];
  const header = columns(lines[at]!);
  const rows = lines.slice(at + 1, lines.indexOf('', at));
  if (rows.length === 0) problems.push(`${what}: no row under the header`);
  for (const row of rows) {
    const cells = columns(row);
    if (cells.length !== header.length)
      problems.push(`${what}: "${row}" has ${cells.length} columns, the header ${header.length}`);
    else if (!STATUS_CELL.test(cells[2]!)) problems.push(`${what}: "${cells[2]}" is no status, in "${row}"`);
    else {
      const bad = cells.slice(3).filter((cell) => !NUMBER_CELL.test(cell));
      if (bad.length > 0) problems.push(`${what}: "${bad[0]}" is no number with its interval, in "${row}"`);
    }
  }
  return problems;
}

/**
 * Why the README's sample no longer has the shape of `fresh` (a fresh run's output of the quick suite, any
 * pairs): an anchor line missing, worded otherwise, or out of order (the header compared column by column),
 * or a row unlike the table's. Empty when it has the shape.
 */
export function shapeProblems(sample: string[], fresh: string[]): string[] {
  const problems = [...tableProblems(fresh, 'the fresh run'), ...tableProblems(sample, 'the README')];
  let last = -1;
  for (const [name, pattern] of ANCHORS) {
    const mine = sample.findIndex((line) => pattern.test(line));
    const theirs = fresh.find((line) => pattern.test(line));
    if (theirs === undefined) {
      problems.push(`the fresh run has no ${name}: the anchors of readme-sample.ts are out of date`);
      continue;
    }
    if (mine < 0) {
      problems.push(`the README's sample lacks ${name}: "${theirs}"`);
      continue;
    }
    if (comparable(sample[mine]!) !== comparable(theirs))
      problems.push(`the README's ${name} reads "${sample[mine]}", today's output "${theirs}"`);
    if (mine < last) problems.push(`the README's ${name} is out of order`);
    last = mine;
  }
  return problems;
}
