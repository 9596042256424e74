// Command names from the bundle's tags and operationIds: `bootComputeInstance` tagged `Compute`
// is `compute instances boot`. The verb is what comes before the tag's words (or the first word),
// the noun what is left once the tag's words are taken off; a singular noun becomes the plural
// another operation of the area uses (`getComputeInstance` beside `listComputeInstances`).

/** `bootComputeInstance` → ['boot', 'Compute', 'Instance']. */
export const camelWords = (text) => text.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
export const kebab = (text) => camelWords(text).map((word) => word.toLowerCase()).join('-');
/** `config_id` → `config-id`: flags are kebab-case, field names snake_case. */
export const flagName = (field) => field.replace(/_/g, '-');

const singular = (word) => (/ies$/.test(word) ? word.replace(/ies$/, 'y') : word.replace(/s$/, ''));
export const plural = (word) => (/[^aeiou]y$/.test(word) ? word.replace(/y$/, 'ies') : /s$/.test(word) ? word : `${word}s`);
const sameWord = (a, b) => a.toLowerCase() === b.toLowerCase() || singular(a).toLowerCase() === singular(b).toLowerCase();

/** Where the tag's words start in the operationId's words, or -1. */
function tagStart(words, tagWords) {
  for (let i = 1; i + tagWords.length <= words.length; i++) {
    if (tagWords.every((tagWord, j) => sameWord(words[i + j], tagWord))) return i;
  }
  return -1;
}

/** The verb and the noun words of an operation: `shutDownComputeInstance` → shut-down, [Instance]. */
export function splitOperationId(operationId, tag) {
  const words = camelWords(operationId);
  const tagWords = tag.split(/\s+/);
  const start = tagStart(words, tagWords);
  const verbEnd = start === -1 ? 1 : start;
  const verb = words.slice(0, verbEnd).map((word) => word.toLowerCase()).join('-');
  const noun = start === -1 ? words.slice(1) : words.slice(start + tagWords.length);
  return { verb, noun };
}

// The action a person types: `get` reads better as `view` (`cloudapi volumes view 123`).
const ACTIONS = { get: 'view' };

/**
 * The command words of every operation: `[area, group?, action]`, keyed by operationId.
 * `operations` is `[{ operationId, tag }]`; two operations with the same words are an error.
 */
export function commandWords(operations) {
  const split = operations.map((op) => ({ ...op, ...splitOperationId(op.operationId, op.tag) }));
  const nounsByArea = new Map();
  for (const { tag, noun } of split) {
    if (!nounsByArea.has(tag)) nounsByArea.set(tag, new Set());
    nounsByArea.get(tag).add(noun.join(''));
  }
  const named = new Map();
  const seen = new Map();
  for (const { operationId, tag, verb, noun } of split) {
    const area = tag.toLowerCase().replace(/\s+/g, '-');
    let group = noun.join('');
    if (group) {
      const pluralForm = [...noun.slice(0, -1), plural(noun.at(-1))].join('');
      if (nounsByArea.get(tag).has(pluralForm)) group = pluralForm;
    }
    const words = [area, ...(group ? [kebab(group)] : []), ACTIONS[verb] ?? verb];
    const key = words.join(' ');
    if (seen.has(key)) throw new Error(`${operationId} and ${seen.get(key)} would both be "cloudapi ${key}": rename one operationId`);
    seen.set(key, operationId);
    named.set(operationId, words);
  }
  return named;
}
