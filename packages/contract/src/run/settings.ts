// The run's options with every default resolved, once, where they come in (runContract, the CLI's
// flags and the Vitest entry read the same table): a phase reads `plan.settings`, never an option
// with a fallback of its own.
import type { ContractOptions } from './types.js';
import type { TargetKind } from '../transport/target.js';
import type { TransportOptions } from '../transport/http.js';
import type { TokenEntry } from '../model/tokens.js';

/** Every default of a run, in one place. */
export const DEFAULTS = {
  /** per request: connect, headers and body */
  timeoutMs: 15_000,
  /** the whole run (clean-up gets its own time after it) */
  deadlineMs: 15 * 60_000,
  settleTimeoutMs: 60_000,
  maxBodyMb: 32,
  undeclared: 'warn',
  /** generated requests per operation (the CLI's --examples asks for 5) */
  examples: 0,
  maxRetries: 3,
  maxRetryAfterMs: 10_000,
  maxTransportFailures: 5,
  maxRefusedInARow: 5,
  /** operations in flight where order does not matter: the mock keeps no state, an implementation does */
  concurrency: { mock: 8, implementation: 1 } satisfies Record<TargetKind, number>,
  /** how long a valid request refused for the resource's state is retried */
  settleMs: { mock: 0, implementation: 5000 } satisfies Record<TargetKind, number>,
} as const;

/** The options of a run as the phases read them: nothing left to default. */
export interface Settings {
  readonly baseUrl: string;
  readonly token?: string;
  readonly tokens: TokenEntry[];
  readonly target: NonNullable<ContractOptions['target']>;
  readonly only?: string[];
  readonly skip?: string[];
  readonly shard?: { index: number; count: number };
  readonly undeclared: 'warn' | 'fail' | 'off';
  readonly negative: boolean;
  readonly examples: number;
  readonly seed: number;
  readonly transport: TransportOptions;
  readonly maxResponseMs?: number;
  readonly deadlineMs: number;
  /** when the deadline falls (epoch milliseconds) */
  readonly deadline: number;
  readonly allowWrites: boolean;
  readonly allowDestructive: boolean;
  readonly remote: boolean;
  readonly dry: boolean;
  /** as given; the target decides the default (plan.concurrency) */
  readonly concurrency?: number;
  /** as given; the target decides the default (plan.settleMs) */
  readonly settleMs?: number;
  readonly settleTimeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterMs: number;
  readonly maxTransportFailures: number;
  readonly maxRefusedInARow: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: string) => void;
}

export function resolveSettings(options: ContractOptions, now = Date.now()): Settings {
  const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
  return Object.freeze({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    token: options.token,
    tokens: options.tokens ?? [],
    target: options.target ?? 'auto',
    only: options.only,
    skip: options.skip,
    shard: options.shard,
    undeclared: options.undeclared ?? DEFAULTS.undeclared,
    negative: options.negative !== false,
    examples: options.examples ?? DEFAULTS.examples,
    seed: options.seed ?? (now % 2 ** 31),
    transport: { timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs, maxBodyBytes: Math.round((options.maxBodyMb ?? DEFAULTS.maxBodyMb) * 1024 * 1024) },
    maxResponseMs: options.maxResponseMs,
    deadlineMs,
    deadline: now + deadlineMs,
    allowWrites: Boolean(options.allowWrites),
    allowDestructive: Boolean(options.allowDestructive),
    remote: Boolean(options.remote),
    dry: Boolean(options.dryRun),
    concurrency: options.concurrency,
    settleMs: options.settleMs,
    settleTimeoutMs: options.settleTimeoutMs ?? DEFAULTS.settleTimeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    maxTransportFailures: options.maxTransportFailures ?? DEFAULTS.maxTransportFailures,
    maxRefusedInARow: options.maxRefusedInARow ?? DEFAULTS.maxRefusedInARow,
    signal: options.signal,
    onProgress: options.onProgress,
  });
}
