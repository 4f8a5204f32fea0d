/**
 * Which flags of the command being run took their value from a test plan, so
 * that a refusal of one names the plan's file and key instead of a flag the
 * user never typed: `plan.yaml: connections: -3 is below the minimum 1`.
 * Every refusal of a flag's value begins with the flag (`--connections: ...`,
 * made from its declaration or by asFlagMessage); cli.ts passes each through
 * inPlanTerms before printing it. One command runs per process: the map is
 * the process's.
 */

const fromPlan = new Map<string, string>();

/** Records that `flag` was given by `file` at `keyPath`. */
export function flagFromPlan(flag: string, file: string, keyPath: string): void {
  fromPlan.set(flag, `${file}: ${keyPath}`);
}

/** `message` with its leading flag named as the plan's file and key, when the plan gave that flag. */
export function inPlanTerms(message: string): string {
  const flag = /^--[A-Za-z0-9][A-Za-z0-9-]*/.exec(message)?.[0];
  const where = flag === undefined ? undefined : fromPlan.get(flag);
  return where === undefined ? message : `${where}${message.slice(flag!.length)}`;
}
