// @cloudapi/contract: checks that an implementation of the API keeps the contract of the bundle.
export { runContract, selectOperations, MOCK_TOKEN } from './run.js';
export type { ContractOptions, ContractResult, OperationResult, RequestRecord, RequestKind, NotRun } from './run.js';
export { formatReport, summaryLine, toJUnit, toJson } from './report/report.js';
export { toHtml } from './report/html.js';
export { statusCoverage } from './checks/status-coverage.js';
export { loadDocument, modelOperations, securityOf, parseExpression } from './model/operations.js';
export type { Operation, Link, Expression } from './model/operations.js';
export { resourceKinds, ResourceRegistry } from './model/resources.js';
export type { ResourceKind, Resource } from './model/resources.js';
export { detectTarget, isLoopback } from './transport/target.js';
export { makeTokens, readTokensFile, probesFor } from './model/tokens.js';
export type { TokenEntry } from './model/tokens.js';
export { createVariantDeriver, RULES } from './model/variants.js';
export type { Check, Outcome } from './checks/outcome.js';
