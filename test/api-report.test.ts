/**
 * The public contract (docs/design.md, "The public contract"): API Extractor builds the report of
 * each entry point, `wsbench` and `wsbench/scenario`, from the built declarations, and each must
 * equal the report checked in under api/. So a change to the public surface fails here until its
 * report is updated, and shows in review as a change to api/*.api.md. Every name an entry point
 * exports has a doc comment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { REPO_ROOT } from './support.js';

const HOW_TO_UPDATE = 'if the change is meant, run `npm run api:update` and commit api/*.api.md with it';

const ENTRY_POINTS = [
  { name: 'wsbench', config: 'api/wsbench.api-extractor.json' },
  { name: 'wsbench/scenario', config: 'api/scenario.api-extractor.json' },
].map((entry) => ({ ...entry, prepared: ExtractorConfig.loadFileAndPrepare(join(REPO_ROOT, entry.config)) }));

// One program for both reports: the shared config lists both entry points' declarations.
const compilerState = CompilerState.create(ENTRY_POINTS[0]!.prepared);

/** The names of the declarations a report exports without a doc comment (API Extractor marks them "(undocumented)"). */
function undocumentedExports(report: string): string[] {
  const lines = report.split('\n');
  return lines.flatMap((line, i) => {
    const name = /^export (?:declare )?(?:abstract )?(?:function|const|let|class|interface|type|enum) (\w+)/.exec(
      line,
    )?.[1];
    return name && lines[i - 1]?.includes('(undocumented)') ? [name] : [];
  });
}

for (const { name, config, prepared } of ENTRY_POINTS) {
  const report = prepared.reportConfigs[0]!.fileName;
  const checkedIn = join('api', report);
  const built = join(prepared.reportTempFolder, report);

  test(`${name}: the API report built from dist/ equals ${checkedIn}`, () => {
    const problems: string[] = [];
    const result = Extractor.invoke(prepared, {
      localBuild: false,
      compilerState,
      messageCallback: (message) => {
        // Collected for the assertion instead of printed.
        message.handled = true;
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
          problems.push(message.formatMessageWithLocation(REPO_ROOT));
      },
    });
    assert.ok(
      !result.apiReportChanged,
      `the public API of ${name} differs from ${checkedIn} (the new report: ${built}); ${HOW_TO_UPDATE}`,
    );
    assert.deepEqual(problems, [], `api-extractor -c ${config} found problems`);
  });

  test(`${name}: every exported name has a doc comment`, () => {
    const undocumented = undocumentedExports(readFileSync(built, 'utf8'));
    assert.deepEqual(undocumented, [], `exported without a doc comment (${built})`);
  });
}
