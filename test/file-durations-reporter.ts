/**
 * A node:test reporter that keeps only how long each test file took: `npm
 * test` adds it beside the reporter people read (run-suite.ts), and prints the
 * slowest files when the suite ends, so a file that grew slow shows at once.
 * Each file is one top-level test when node --test runs files in their own
 * processes; its name is the file's path, its duration the file's wall time.
 */
interface TestEvent {
  type: string;
  data: { nesting: number; name: string; file?: string; details?: { duration_ms?: number } };
}

export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const ms = event.data.details?.duration_ms;
    if (ms === undefined) continue;
    yield `${JSON.stringify({ file: event.data.file ?? event.data.name, ms, failed: event.type === 'test:fail' })}\n`;
  }
}
