// JSON pointers (RFC 6901), written once: the reference tokens of a pointer with `~` and `/`
// escaped as `~0` and `~1`, in its plain form (`/paths/~1volumes/get`, as Ajv's instancePath) or as
// a URI fragment (`#/paths/~1volumes/get`, as a `$ref`), whose tokens may also be percent-encoded.
// Whoever reads, writes or follows a pointer (the bundle's `$ref`s, the validators' paths, the
// linters' findings) goes through here.

/**
 * One reference token as a pointer writes it: `~` as `~0`, `/` as `~1`.
 * @param {string | number} token
 * @returns {string}
 */
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * One reference token as a pointer wrote it, unescaped: `~1` is `/`, `~0` is `~`.
 * @param {string} token
 * @returns {string}
 */
export function unescapeToken(token) {
  if (/~(?![01])/.test(token)) throw new TypeError(`"${token}" is no JSON pointer token: "~" is written "~0" and "/" is written "~1"`);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

// A fragment's token may be percent-encoded; a `%` that starts no escape is kept as written, since
// some tools (Redocly) write fragments without encoding them.
const percentDecoded = (token) => {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
};

/**
 * The reference tokens of a pointer: `'/a/b~1c'` and `'#/a/b~1c'` are `['a', 'b/c']`; `''` and
 * `'#'` (the whole document) are `[]`. A fragment's tokens are percent-decoded.
 * @param {string} pointer
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new TypeError(`a JSON pointer is a string, not ${typeof pointer}`);
  const fragment = pointer.startsWith('#');
  const body = fragment ? pointer.slice(1) : pointer;
  if (body === '') return [];
  if (!body.startsWith('/')) throw new TypeError(`not a JSON pointer: "${pointer}" (it must be empty or start with "/" or "#/")`);
  return body.slice(1).split('/').map((token) => unescapeToken(fragment ? percentDecoded(token) : token));
}

/**
 * The pointer of these reference tokens: plain (`/a/b~1c`) by default, or as a URI fragment
 * (`#/a/b~1c`, a `%` percent-encoded) with `{ fragment: true }`. No tokens is the whole document
 * (`''`, or `#`).
 * @param {ReadonlyArray<string | number>} tokens
 * @param {{ fragment?: boolean }} [options]
 * @returns {string}
 */
export function formatPointer(tokens, { fragment = false } = {}) {
  const body = tokens.map((token) => `/${fragment ? escapeToken(token).replace(/%/g, '%25') : escapeToken(token)}`).join('');
  return fragment ? `#${body}` : body;
}

/**
 * A pointer below `pointer`, in the same form (fragment or plain):
 * `appendPointer('#/paths/~1volumes', 'post', 'requestBody')`.
 * @param {string} pointer
 * @param {...(string | number)} tokens
 * @returns {string}
 */
export function appendPointer(pointer, ...tokens) {
  return `${pointer}${formatPointer(tokens, { fragment: pointer.startsWith('#') }).replace(/^#/, '')}`;
}

/**
 * The node a pointer (or its list of tokens) names in `root`; undefined when there is none. Only a
 * node's own members are followed (never `constructor` or an array's `length`).
 * @param {unknown} root
 * @param {string | ReadonlyArray<string | number>} pointer
 * @returns {any}
 */
export function resolvePointer(root, pointer) {
  const tokens = typeof pointer === 'string' ? parsePointer(pointer) : pointer;
  /** @type {any} */
  let node = root;
  for (const raw of tokens) {
    const token = String(raw);
    if (Array.isArray(node)) node = /^(?:0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
    else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** `resolvePointer`, under the name the contract kit uses. */
export const valueAtPointer = resolvePointer;
