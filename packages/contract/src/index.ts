// @cloudapi/contract: checks that an implementation of the API keeps the contract of the bundle.
export { runContract, selectOperations, MOCK_TOKEN } from './run.js';
export type { ContractOptions, ContractResult, OperationResult, RequestRecord, RequestKind, NotRun } from './run.js';
export { formatReport, summaryLine, toJUnit, toJson } from './report.js';
export { toHtml } from './report-html.js';
export { statusCoverage } from './status-coverage.js';
export { loadDocument, modelOperations, securityOf, parseExpression } from './model.js';
export type { Operation, Link, Expression } from './model.js';
export { resourceKinds, ResourceRegistry } from './resources.js';
export type { ResourceKind, Resource } from './resources.js';
export { detectTarget, isLoopback } from './target.js';
export { makeTokens, readTokensFile, probesFor } from './tokens.js';
export type { TokenEntry } from './tokens.js';
export { createVariantDeriver, RULES } from './variants.js';
export type { Check, Outcome } from './checks.js';
