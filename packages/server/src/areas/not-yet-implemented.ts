// Operations of the bundle that no area implements yet: each answers 501 with an ErrorResponse
// saying so. test/core/coverage.test.ts checks that this list is exactly the operations of the
// bundle tags no area implements. When you build an area, delete its block here (keep the blank
// lines between blocks, so that areas built in parallel merge cleanly).
export const NOT_YET_IMPLEMENTED: Record<string, string> = {

};
