// JSON pointers (RFC 6901), the one place that knows their escapes: `~1` is `/` and `~0` is `~`
// inside a reference token, unescaped in that order (`~01` is the token `~1`). A pointer into a
// document may be written as a URI fragment (`#/paths/~1volumes`), whose tokens are also
// percent-encoded; `parsePointer` reads both forms.

/**
 * One reference token with `~` and `/` escaped.
 * @param {string | number} token
 * @returns {string}
 */
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * One escaped reference token read back: `~1` → `/`, then `~0` → `~`.
 * @param {string} token
 * @returns {string}
 */
export function unescapeToken(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The reference tokens of a pointer: `/a/b~1c` and `#/a/b~1c` are both `['a', 'b/c']`; `''` and
 * `'#'` are the whole document (no token), `'/'` the token `''`. A fragment's tokens are
 * percent-decoded too.
 * @param {string} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  const fragment = pointer.startsWith('#');
  const path = fragment ? pointer.slice(1) : pointer;
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`not a JSON pointer: "${pointer}" (it must be empty or start with "/" or "#/")`);
  return path.slice(1).split('/').map((token) => unescapeToken(fragment ? decodeURIComponent(token) : token));
}

/**
 * The pointer of these reference tokens: `['paths', '/volumes']` is `/paths/~1volumes`; with
 * `{ fragment: true }` it is written as a URI fragment, `#/paths/~1volumes` (tokens are not
 * percent-encoded: the bundle's `$ref`s are written that way).
 * @param {ReadonlyArray<string | number>} tokens
 * @param {{ fragment?: boolean }} [options]
 * @returns {string}
 */
export function formatPointer(tokens, { fragment = false } = {}) {
  return `${fragment ? '#' : ''}${tokens.map((token) => `/${escapeToken(token)}`).join('')}`;
}

/**
 * The value at a pointer inside a JSON value, or undefined when it leads nowhere.
 * @param {unknown} value
 * @param {string} pointer
 * @returns {unknown}
 */
export function valueAtPointer(value, pointer) {
  /** @type {any} */
  let node = value;
  for (const token of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[token];
  }
  return node;
}
