/** The test plan a run or a capacity search was given, recorded in its result (`plan`). */
import type { BenchResult, TestPlanInfo } from '../../../shared/types/result-types.js';

/** `result` with the plan as it ran; `result` itself without one. */
export function withTestPlan<R extends BenchResult>(result: R, plan: TestPlanInfo | null): R {
  return plan === null ? result : { ...result, plan };
}
