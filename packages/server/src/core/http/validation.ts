// Request validation from the bundle: the shared implementation in @cloudapi/spec (the MSW
// handlers of @cloudapi/msw use the same one), so a bad field is named the same way everywhere.
export { RequestValidation, describeErrors } from '@cloudapi/spec/request-validation';
export type { OperationValidator } from '@cloudapi/spec/request-validation';
