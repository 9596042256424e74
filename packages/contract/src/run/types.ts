// The shapes a run is configured by and reports in: options in, the result out (reports read it).
import type { Check } from '../checks/outcome.js';
import type { TargetKind } from '../transport/target.js';
import type { Safety } from '../transport/target.js';
import type { TokenEntry } from '../model/tokens.js';

export const MOCK_TOKEN = 'contract-kit-mock-token';

export type RequestKind = 'positive' | 'negative' | 'auth' | 'scope' | 'sequence' | 'pagination' | 'method' | 'generated' | 'setup' | 'cleanup';

export interface RequestRecord {
  label: string;
  kind: RequestKind;
  method?: string;
  url?: string;
  status?: number | null;
  ms?: number;
  checks: Check[];
  curl?: string;
}

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  security: string;
  requests: RequestRecord[];
  notes: string[];
  /** why the operation's success could not be proven without anything failing */
  unproven?: string;
  successValidated: boolean;
  tally: Record<'pass' | 'fail' | 'warn' | 'skip', number>;
  /** the response keys the bundle declares ("200", "4XX", "default") */
  declaredStatuses: string[];
  /** every status the target answered a request of this operation with, sorted */
  seenStatuses: number[];
}

export interface NotRun { check: string; reason: string }

export interface ContractOptions {
  baseUrl: string;
  /** token for valid requests (defaults to the full-access one of `tokens`) */
  token?: string;
  /** tokens with known scopes, grants and restrictions (the server's TOKENS_FILE format) */
  tokens?: TokenEntry[];
  target?: 'auto' | TargetKind;
  document?: any;
  spec?: string;
  /** operationIds, tags (area names) or `METHOD /path`s */
  only?: string[];
  skip?: string[];
  shard?: { index: number; count: number };
  undeclared?: 'warn' | 'fail' | 'off';
  negative?: boolean;
  /** generated requests per operation with a JSON body (fast-check) */
  examples?: number;
  seed?: number;
  timeoutMs?: number;
  maxBodyMb?: number;
  maxResponseMs?: number;
  deadlineMs?: number;
  allowWrites?: boolean;
  allowDestructive?: boolean;
  /** treat a loopback target as remote (a proxy in front of a real server): writes then need allowWrites */
  remote?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  /** consecutive requests without an answer after which the target counts as unusable */
  maxTransportFailures?: number;
  /** valid requests in a row answered 429 or 503 (after their retries) after which the target counts as unusable */
  maxRefusedInARow?: number;
  /** how long a valid request refused for the resource's state (a 400 naming no field) is retried */
  settleMs?: number;
  /** how long an operation waits for what it acts on to leave a transitional status (provisioning, booting...) */
  settleTimeoutMs?: number;
  /** retries of a 429, each after its Retry-After (capped by maxRetryAfterMs) */
  maxRetries?: number;
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
  /** one line per operation as it finishes */
  onProgress?: (line: string) => void;
}

export interface ContractResult {
  api: string;
  baseUrl: string;
  target: TargetKind | null;
  detection: string;
  safety?: Safety;
  token: string;
  notes: string[];
  /** what the kit suspects went wrong with the run itself (a base URL without the base path) */
  hints?: string[];
  notRun: NotRun[];
  operations: OperationResult[];
  setup: RequestRecord[];
  /** removed: what clean-up deleted; removedAfterCheck: what checks made on the way, deleted right after them */
  cleanup: { removed: string[]; leftBehind: { resource: string; reason: string }[]; removedAfterCheck: string[] };
  dryRun: boolean;
  planned: string[];
  seed: number;
  shard?: { index: number; count: number };
  abort?: string;
  coverage: { selected: number; total: number; exercised: number; successValidated: number; unproven: number };
  tally: Record<'pass' | 'fail' | 'warn' | 'skip', number>;
  slowest?: { operationId: string; label: string; ms: number };
  durationMs: number;
  exitCode: 0 | 1 | 2;
  ok: boolean;
}
