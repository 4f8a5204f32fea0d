/**
 * A subcommand's commander instance. Its parse errors throw, so that cli.ts
 * turns them into one line and exit 2, instead of commander printing its own
 * message and exiting.
 */
import { Command } from 'commander';

export function subcommand(name: string): Command {
  return new Command(name).exitOverride().configureOutput({ writeErr: () => undefined });
}

/** Parses the words after the subcommand's name into its operands (as many as it declares required, at least) and its flags. */
export function parseWords<F extends object, O extends string[] = string[]>(
  command: Command,
  args: string[],
): { operands: O; flags: F } {
  command.parse(args, { from: 'user' });
  return { operands: command.args as O, flags: command.opts<F>() };
}

/**
 * A commander error as the one line wsbench prints: without its "error: " and on one line, its suggestion
 * kept ("unknown option '--servres': did you mean --servers?").
 */
export function commanderLine(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (one of )?(.+)\?\)$/, (_, many: string | undefined, names: string) =>
      many ? `: did you mean one of ${names}?` : `: did you mean ${names}?`,
    )
    .split('\n')[0]!;
}
