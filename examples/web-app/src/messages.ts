// What the page tells its user when a call fails: an answer the API gave (an ApiError, typed by
// status from the spec), or no answer at all (the client's TypeError says whether the browser
// blocked the request, as for CORS, or nothing answered).
import { isApiError, type Operation, type OperationError } from '@cloudapi/client';

type CreateError = OperationError<Operation<'/volumes', 'post'>>;

/** Each problem of a refused create, by status: the ones POST /volumes declares, then any other. */
export function createRefusal(error: CreateError): string[] {
  switch (error.status) {
    case 400:
      return error.errors.map(({ field, reason }) => (field ? `${field}: ${reason}` : reason));
    case 401:
      return ['The API refused the token: type it again.'];
    case 403:
      return error.errors.map(({ reason }) => `Not allowed: ${reason}`);
    case 413:
      return ['The request was too large.'];
    case 429:
      return [`Too many requests: try again in ${Math.ceil((error.retryAfterMs ?? 1000) / 1000)} s.`];
    default:
      return [`The API answered ${error.status}: ${error.errors.map(({ reason }) => reason).join('; ')}`];
  }
}

/** The lines to show for whatever a list or create threw. */
export function failureLines(failure: unknown): string[] {
  if (isApiError(failure)) return failure.errors.map(({ field, reason }) => (field ? `${field}: ${reason}` : reason));
  return [failure instanceof Error ? failure.message : String(failure)];
}
