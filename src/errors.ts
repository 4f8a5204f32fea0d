/**
 * Bad input from the user. The CLI prints `message` as one line and exits 2;
 * anything else that escapes is a bug or a fault.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
