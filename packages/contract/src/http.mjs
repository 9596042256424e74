// Building the HTTP requests of an operation and reading the answers.

const JSON_MEDIA = /^application\/(.+\+)?json$/;
export const isJsonMedia = (mediaType) => JSON_MEDIA.test(mediaType);

/** `type/subtype` of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(header) {
  return header ? header.split(';')[0].trim().toLowerCase() : '';
}

/** Whether a response media type is one of the declared ones (`*\/*` and `type/*` ranges count). */
export function declaredMediaType(declared, actual) {
  return declared.some((d) => {
    const want = d.toLowerCase();
    if (want === actual || want === '*/*') return true;
    return want.endsWith('/*') && actual.startsWith(want.slice(0, -1));
  });
}

function serializeQuery(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) search.append(k, String(v));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// A form body from an object: files for binary fields, JSON for nested values, strings otherwise.
function formData(value, binaryFields, encoding = {}) {
  const form = new FormData();
  for (const [name, field] of Object.entries(value || {})) {
    const items = Array.isArray(field) && !binaryFields.has(name) ? field : [field];
    for (const item of items) {
      if (binaryFields.has(name)) {
        const type = (encoding[name] && encoding[name].contentType) || 'text/plain';
        form.append(name, new Blob([typeof item === 'string' ? item : JSON.stringify(item)], { type }), `${name}.txt`);
      } else {
        form.append(name, item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
    }
  }
  return form;
}

/**
 * An HTTP request for an operation.
 * @param {object} input
 * @param {string} input.baseUrl the API base, such as `http://127.0.0.1:4010/v4`
 * @param {string} input.method
 * @param {string} input.path the path template, such as `/images/{imageId}`
 * @param {Record<string, Record<string, unknown>>} input.params values by location: path, query, header
 * @param {{mediaType: string, value: unknown, binaryFields?: Set<string>, encoding?: object}} [input.body]
 * @param {string} [input.token] sent as `Authorization: Bearer <token>`
 */
export function buildRequest({ baseUrl, method, path, params = {}, body, token }) {
  const url = `${baseUrl.replace(/\/+$/, '')}${path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String((params.path || {})[name])))}${serializeQuery(params.query || {})}`;
  const headers = { accept: 'application/json, */*;q=0.5' };
  for (const [name, value] of Object.entries(params.header || {})) headers[name.toLowerCase()] = String(value);
  if (token) headers.authorization = `Bearer ${token}`;
  let payload;
  if (body) {
    if (isJsonMedia(body.mediaType)) {
      headers['content-type'] = body.mediaType;
      payload = JSON.stringify(body.value);
    } else if (body.mediaType === 'multipart/form-data') {
      payload = formData(body.value, body.binaryFields || new Set(), body.encoding); // fetch sets the boundary
    } else if (body.mediaType === 'application/x-www-form-urlencoded') {
      headers['content-type'] = body.mediaType;
      payload = serializeQuery(body.value || {}).slice(1);
    } else {
      headers['content-type'] = body.mediaType;
      payload = typeof body.value === 'string' ? body.value : JSON.stringify(body.value);
    }
  }
  return { method: method.toUpperCase(), url, headers, body: payload };
}

/** Sends a request; never throws: network failures come back as `{ error }`. */
export async function send(request, { timeoutMs = 15_000 } = {}) {
  const started = performance.now();
  try {
    const response = await fetch(request.url, {
      method: request.method, headers: request.headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const mediaType = mediaTypeOf(response.headers.get('content-type'));
    let json;
    let parseError;
    if (isJsonMedia(mediaType) && text.length) {
      try { json = JSON.parse(text); } catch (error) { parseError = error.message; }
    }
    return { status: response.status, headers: response.headers, mediaType, text, json, parseError, ms: performance.now() - started };
  } catch (error) {
    const reason = error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error.cause && error.cause.message) || error.message;
    return { error: reason, ms: performance.now() - started };
  }
}
