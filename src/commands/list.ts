/** `wsbench list`: stacks and scenarios as they are on this machine. */
import { Command } from 'commander';
import { renderList } from '../report/list.js';

export async function listFromArgs(args: string[]): Promise<number> {
  const command = new Command('wsbench list')
    .option('--json', 'print as JSON')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(args, { from: 'user' });
  process.stdout.write(await renderList(command.opts<{ json?: boolean }>().json === true));
  return 0;
}
