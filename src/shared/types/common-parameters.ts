/**
 * Parameters wsbench gives every scenario: the window's `duration`, and those
 * that act on the stacks rather than on the scenario's code (which may still
 * read them all from its params). A scenario words and bounds `duration` its
 * own way with `duration: { ... }`; it may not redeclare the others.
 */
import type { DurationOverride, ParameterDeclarations, ParameterSpec } from './declaration-types.js';
import { UsageError } from './errors.js';

/** Parameters that act on the stacks; result files older than them ran with their defaults. */
export const STACK_PARAMETERS = {
  deflate: {
    kind: 'choice',
    description:
      'permessage-deflate at both ends (on: pairs that cannot negotiate it are skipped; counters record what each handshake negotiated)',
    choices: ['off', 'on'],
    default: 'off',
    sweepable: true,
  },
  tls: {
    kind: 'choice',
    description:
      'wss:// with a throwaway certificate made for the run (on: every server serves TLS, every client trusts exactly that certificate; pairs that cannot are skipped)',
    choices: ['off', 'on'],
    default: 'off',
    sweepable: true,
  },
  serverProcesses: {
    kind: 'integer',
    description:
      'processes of a built-in server stack, sharing one port (SO_REUSEPORT); above 1 only for scenarios whose server half allows it and stacks that can share a port',
    default: 1,
    min: 1,
    max: 64,
    sweepable: true,
  },
} as const satisfies ParameterDeclarations;

/** The measurement window's length, unless the scenario declares another window (its `windowMs`). */
const DURATION_PARAMETER = {
  kind: 'duration',
  description: 'measurement window',
  default: '10s',
  min: '100ms',
} as const satisfies ParameterSpec;

export const COMMON_PARAMETERS = {
  duration: DURATION_PARAMETER,
  ...STACK_PARAMETERS,
} as const satisfies ParameterDeclarations;

/**
 * A scenario's own parameters followed by the common ones, `duration` as the scenario words it.
 * A scenario that declares a `duration` parameter itself (kind duration) keeps it where it stands;
 * redeclaring another common parameter is an error.
 */
export function withCommonParameters(
  scenario: string,
  own: Readonly<Record<string, ParameterSpec>>,
  duration: DurationOverride = {},
): Record<string, ParameterSpec> {
  for (const name of Object.keys(COMMON_PARAMETERS)) {
    if (!(name in own)) continue;
    if (name === 'duration' && own.duration!.kind === 'duration') continue;
    throw new UsageError(
      `scenario ${scenario} declares a parameter "${name}", which wsbench adds to every scenario: rename it`,
    );
  }
  const window: Record<string, ParameterSpec> =
    'duration' in own ? {} : { duration: { ...DURATION_PARAMETER, ...duration } };
  return { ...own, ...window, ...STACK_PARAMETERS };
}
