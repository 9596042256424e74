// @cloudapi/client: the typed client of the Cloud Account Management API.
export { createClient, unwrap, VERSION } from './client.js';
export type { ClientOptions, CloudApiClient, Fetch, TokenSource, UploadData, UploadOptions } from './client.js';
export { ApiError, isApiError } from './errors.js';
export type {
  DeclaredBody, DeclaredStatus, ErrorBodyOf, ErrorDetailOf, HttpStatus, OperationError, RecognisedErrorBody, UndeclaredStatus, UnrecognisedBody,
} from './errors.js';
export { isPaginationError, PaginationError } from './pagination-error.js';
export type { IncompleteReason } from './pagination-error.js';
export { MAX_REDIRECTS } from './redirects.js';
export { readRateLimit } from './rate-limit.js';
export type { RateLimit } from './rate-limit.js';
export { backoffDelay, MAX_RETRIES, parseRetryAfter, RETRY_DEFAULTS } from './retry.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export type {
  ApiResult, CallInit, ClientMethod, FilterOption, GetMethod, GetPath, ListArguments, ListFilter, ListInit, ListItem, ListItemOf, ListPage, ListPageOf, ListPath, ListPathArgument, MultipartBody, Operation, Page,
  PaginationOptions, PaginationStop, SuccessBody,
} from './types.js';
export type { Middleware } from 'openapi-fetch';
// The generated types, so one import serves both: `import { createClient, type Volume } from "@cloudapi/client"`.
export type * from '@cloudapi/types';
