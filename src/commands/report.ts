/** `wsbench report results.json [--out dir] [--png]`: charts and HTML from a result file alone. */
import { existsSync, statSync } from 'node:fs';
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { readResultFile } from '../result-file.js';
import { writeArtifacts } from '../report/artifacts.js';

interface ReportFlags {
  out?: string;
  png?: boolean;
}

export async function reportFromArgs(args: string[]): Promise<number> {
  const command = new Command('wsbench report')
    .argument('<results>', 'result JSON written by wsbench run')
    .option('--out <dir>', 'directory for report.html and charts/ (default: beside the result file)')
    .option('--png', 'also write charts/*.png')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(args, { from: 'user' });
  const [path] = command.args as [string];
  const flags = command.opts<ReportFlags>();
  if (flags.out !== undefined && existsSync(flags.out) && !statSync(flags.out).isDirectory()) {
    throw new UsageError(`--out: ${flags.out} is a file, not a directory`);
  }
  const result = readResultFile(path);
  const written = await writeArtifacts(result, path, { ...(flags.out !== undefined ? { outDir: flags.out } : {}), png: flags.png === true });
  process.stdout.write(written.map((p) => `${p}\n`).join(''));
  return 0;
}
