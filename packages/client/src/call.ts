// One call of the client, apart from openapi-fetch: its abort signal (the caller's, and the
// call's timeout) and how openapi-fetch's answer becomes the call's result.
import { ApiError } from './errors.js';

export type AnyInit = { params?: { path?: object; query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
export type AnyResult = { data?: unknown; error?: unknown; response: Response };
export type AnyCall = (url: string, init?: AnyInit) => Promise<AnyResult>;

/**
 * The signal a call's attempts are sent with. With a timeout (`timeoutMs` above 0 and finite):
 * one AbortController that follows the caller's signal and whose timer `arm` restarts for each
 * attempt; `release` stops the timer once the body has been read and lets the caller's signal go.
 * (An already aborted signal stops the call before it sends anything.)
 */
export function callSignal(operation: string, timeoutMs: number, callerSignal: AbortSignal | null | undefined): { signal: AbortSignal | null | undefined; arm?: (on: boolean) => void; release: () => void } {
  if (!(timeoutMs > 0 && timeoutMs < Infinity)) return { signal: callerSignal, release() {} };
  const controller = new AbortController();
  const follow = () => controller.abort(callerSignal!.reason);
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = (on: boolean) => {
    clearTimeout(handle);
    if (on) handle = setTimeout(() => controller.abort(new DOMException(`${operation} timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  };
  callerSignal?.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, arm, release: () => { arm(false); callerSignal?.removeEventListener('abort', follow); } };
}

/**
 * openapi-fetch's answer as the call's result: `ApiError` for a failure status, and for a success
 * whose body (read as text) is not a JSON object, since every success of the spec is one
 * (test/derived.test.ts holds the bundle to it).
 */
export function resultOf({ data, error, response }: AnyResult, operation: string, url: string): AnyResult {
  if (!response.ok) return { error: new ApiError(response, error, operation, response.url || url), response };
  let cause: unknown;
  try {
    const value: unknown = JSON.parse(data as string);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { data: value, response };
  } catch (failure) {
    cause = failure;
  }
  return { error: new ApiError(response, data, operation, response.url || url, 'not a JSON object', cause), response };
}
