// Small facts about JSON values, shared by the phases of a run.
export const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Equal as JSON (key order included, which the answers of one server keep). */
export const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
