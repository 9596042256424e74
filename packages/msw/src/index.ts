// @cloudapi/msw: Mock Service Worker handlers for the Cloud Account Management API.
export { createHandlers } from './handlers.js';
export type { CloudApiHandlers, HandlersOptions } from './handlers.js';
export { createHttp } from './typed-http.js';
export type { BodyOf, HttpOptions, OperationOf, PathParamsOf, QueryOf, SuccessBodyOf, TypedAnswer, TypedHttp, TypedResolver, TypedResolverInfo } from './typed-http.js';
export type { StatefulOptions, StatefulStore, StatefulStore as Store, StateStorage, TokenEntry } from './stateful.js';
export type { ErrorDetail, ErrorResponse } from './errors.js';
