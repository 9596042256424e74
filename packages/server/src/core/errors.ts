// Every failure the server answers is an `ErrorResponse`: `{errors: [{field?, reason}]}`, with
// `field` a dotted path into the request (`tags.2`, `devices.sda.disk_id`) when one field is at
// fault. Handlers throw these; the HTTP layer turns them into answers.

export interface ErrorDetail {
  field?: string;
  reason: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(status: number, errors: ErrorDetail[], headers: Record<string, string> = {}) {
    super(errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join('; '));
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

const detail = (reason: string, field?: string): ErrorDetail => (field ? { field, reason } : { reason });

/** 400: the request breaks a rule (name the field when one is at fault). */
export const badRequest = (reason: string, field?: string) => new ApiError(400, [detail(reason, field)]);
/** 401: no token, or one the server does not know. */
export const unauthorized = (reason: string) => new ApiError(401, [detail(reason)]);
/** 403: the token lacks a scope, or the user a grant or a permission; say which. */
export const forbidden = (reason: string, field?: string) => new ApiError(403, [detail(reason, field)]);
/** 404: the object the path names does not exist, or is not visible to this user. */
export const notFound = (reason: string) => new ApiError(404, [detail(reason)]);
