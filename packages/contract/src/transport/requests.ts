// Building the bytes of a request: the URL from the path template and parameter values, the
// body in its media type (JSON, multipart with files, form-urlencoded, text), and the
// Authorization lines, which the auth checks vary on purpose.
import { isJsonMedia } from './http.js';
import type { OutgoingRequest } from './http.js';

export interface Params {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
}

export interface BodyValue {
  mediaType: string;
  value: unknown;
  binaryFields?: Set<string>;
  encoding?: Record<string, any>;
}

/** What goes in the Authorization header: nothing, a token under a scheme, or raw lines. */
export type Auth = { kind: 'none' } | { kind: 'token'; token: string; scheme?: string } | { kind: 'raw'; lines: string[] };

function serializeQuery(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) search.append(k, String(v));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// A form body from an object: files for binary fields, JSON for nested values, strings otherwise.
async function formBytes(value: unknown, binaryFields: Set<string>, encoding: Record<string, any> = {}): Promise<{ bytes: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, field] of Object.entries((value as Record<string, unknown>) || {})) {
    const items = Array.isArray(field) && !binaryFields.has(name) ? field : [field];
    for (const item of items) {
      if (binaryFields.has(name)) {
        const type = encoding[name]?.contentType || 'text/plain';
        form.append(name, new Blob([typeof item === 'string' ? item : JSON.stringify(item)], { type }), `${name}.txt`);
      } else {
        form.append(name, item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
    }
  }
  const response = new Response(form);
  return { bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'multipart/form-data' };
}

export function urlOf(baseUrl: string, path: string, params: Params): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params.path[name])));
  return `${baseUrl.replace(/\/+$/, '')}${filled}${serializeQuery(params.query)}`;
}

export async function buildRequest({ baseUrl, method, path, params, body, auth }: { baseUrl: string; method: string; path: string; params: Params; body?: BodyValue | null; auth: Auth }): Promise<OutgoingRequest> {
  const headers: [string, string][] = [['accept', 'application/json, */*;q=0.5']];
  for (const [name, value] of Object.entries(params.header)) if (value !== undefined) headers.push([name.toLowerCase(), String(value)]);
  if (auth.kind === 'token') headers.push(['authorization', `${auth.scheme ?? 'Bearer'} ${auth.token}`]);
  if (auth.kind === 'raw') for (const line of auth.lines) headers.push(['authorization', line]);
  let payload: Buffer | undefined;
  if (body) {
    if (isJsonMedia(body.mediaType)) {
      headers.push(['content-type', body.mediaType]);
      payload = Buffer.from(JSON.stringify(body.value));
    } else if (body.mediaType === 'multipart/form-data') {
      const form = await formBytes(body.value, body.binaryFields ?? new Set(), body.encoding);
      headers.push(['content-type', form.contentType]);
      payload = form.bytes;
    } else if (body.mediaType === 'application/x-www-form-urlencoded') {
      headers.push(['content-type', body.mediaType]);
      payload = Buffer.from(serializeQuery((body.value as Record<string, unknown>) || {}).slice(1));
    } else {
      headers.push(['content-type', body.mediaType]);
      payload = Buffer.from(typeof body.value === 'string' ? body.value : JSON.stringify(body.value));
    }
  }
  return { method: method.toUpperCase(), url: urlOf(baseUrl, path, params), headers, body: payload };
}
