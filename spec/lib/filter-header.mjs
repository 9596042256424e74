// The `X-Filter` header as it travels: its name and the encoder every client of this repository
// uses (@cloudapi/client, the cloudapi command line, the contract kit). Apart from filters.mjs and
// free of imports, so a bundled client takes these few lines and not the language's parser.

/** @type {'X-Filter'} */
export const FILTER_HEADER = 'X-Filter';

/**
 * A filter as the header's text: JSON with every character past ASCII written as a `\uXXXX`
 * escape, since HTTP header values carry bytes, not Unicode (a raw UTF-8 byte arrives as Latin-1,
 * and `fetch` refuses a character past U+00FF outright).
 * @param {unknown} filter @returns {string}
 */
export function encodeFilterHeader(filter) {
  // Outside printable ASCII (JSON.stringify already escaped the control characters below it).
  return JSON.stringify(filter).replace(/[^ -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
