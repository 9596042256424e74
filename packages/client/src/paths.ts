// Path parameters, each sent as exactly one path segment. URLs (WHATWG, which fetch uses) treat a
// segment "." or ".." as a move in the path even when percent-encoded ("%2E%2E"), and an empty
// segment changes which operation a path names: those values cannot be sent, so they are refused
// before anything is sent. Everything else is percent-encoded, `/`, `?`, `#` and `%` included.

/** openapi-fetch's `pathSerializer`: fills `{name}` in `url` from `values`; throws a TypeError for a value no segment can carry. */
export const serializePath = (url: string, values: Record<string, unknown>): string => url.replace(/\{([^{}]+)\}/g, (_, name: string) => {
  const value = values[name];
  const text = typeof value === 'number' ? String(value) : value;
  try {
    if (typeof text === 'string' && !/^\.{0,2}$/.test(text)) return encodeURIComponent(text);
  } catch {
    // a lone surrogate: not well-formed Unicode, which no URL can carry
  }
  throw new TypeError(`path parameter ${name} ${value === undefined ? `is missing: pass params.path.${name}` : `= ${JSON.stringify(value)} is not one path segment`}`);
});
