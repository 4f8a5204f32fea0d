/**
 * Bad input from the user. The CLI prints `message` as one line and exits 2;
 * anything else that escapes is a bug or a fault.
 */
export class UsageError extends Error {
  override readonly name: string = 'UsageError';
}

/**
 * Bad input for one scenario parameter. The library's message names the
 * parameter (`duration: ...`); the CLI names the flag instead (`--duration: ...`).
 * `mentions`: other parameters the problem names (a bound one of them sets),
 * which the CLI names as flags too.
 */
export class ParameterError extends UsageError {
  override readonly name = 'ParameterError';
  constructor(
    readonly parameter: string,
    readonly problem: string,
    readonly mentions: readonly string[] = [],
  ) {
    super(`${parameter}: ${problem}`);
  }
}
