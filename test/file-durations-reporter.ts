/**
 * A node:test reporter that keeps only how long each test file took: `npm
 * test` adds it beside the reporter people read (run-suite.ts), and prints the
 * slowest files when the suite ends, so a file that grew slow shows at once.
 * Each top-level test says its file; a file's time is the sum of its top-level
 * tests' (node:test runs a file's tests one after another), written once the
 * run ends.
 */
interface TestEvent {
  type: string;
  data: { nesting: number; name: string; file?: string; details?: { duration_ms?: number } };
}

export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const files = new Map<string, { ms: number; failed: boolean }>();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const ms = event.data.details?.duration_ms;
    if (ms === undefined) continue;
    const file = event.data.file ?? event.data.name;
    const known = files.get(file) ?? { ms: 0, failed: false };
    files.set(file, { ms: known.ms + ms, failed: known.failed || event.type === 'test:fail' });
  }
  for (const [file, { ms, failed }] of files) yield `${JSON.stringify({ file, ms, failed })}\n`;
}
