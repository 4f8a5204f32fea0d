/**
 * A node:test reporter that keeps only how long each test file took: `npm
 * test` adds it beside the reporter people read (run-suite.ts), and prints the
 * slowest files when the suite ends, so a file that grew slow shows at once.
 * Each top-level test says its file and its time; run-suite.ts adds up each
 * file's (node:test runs a file's tests one after another).
 */
interface TestEvent {
  type: string;
  data: { nesting: number; name: string; file?: string; details?: { duration_ms?: number } };
}

export default async function* fileDurations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  // One line per top-level test as it ends: the suite's --test-force-exit may end the run before a last write.
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const ms = event.data.details?.duration_ms;
    if (ms === undefined) continue;
    yield `${JSON.stringify({ file: event.data.file ?? event.data.name, ms, failed: event.type === 'test:fail' })}\n`;
  }
}
