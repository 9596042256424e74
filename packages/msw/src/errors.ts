// Answers in the spec's ErrorResponse shape: `{ errors: [{ field?, reason }] }`.
import { HttpResponse } from 'msw';
import type { components } from '@cloudapi/types';

export type ErrorResponse = components['schemas']['ErrorResponse'];
export type ErrorDetail = ErrorResponse['errors'][number];

export function errorAnswer(status: number, errors: ErrorDetail[], headers: Record<string, string> = {}) {
  return HttpResponse.json<ErrorResponse>({ errors }, { status, headers });
}
