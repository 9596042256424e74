// @cloudapi/dev: the designer loop behind `npm run dev` (see src/loop.mjs).
export { startDevLoop } from './loop.mjs';
export { focusedRoot, WHOLE_DOCUMENT_RULES } from './focus.mjs';
