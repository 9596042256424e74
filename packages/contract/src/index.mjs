// @cloudapi/contract: checks that an implementation of the API keeps the contract of the bundle.
export { runContract, detectTarget, loadDocument, MOCK_TOKEN } from './run.mjs';
export { formatReport, toJUnit } from './report.mjs';
export { createVariantDeriver, RULES } from './variants.mjs';
export { orderedOperations, securityOf } from './plan.mjs';
