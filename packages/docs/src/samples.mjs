// Code samples for one operation of a bundled OpenAPI document, generated from that operation's
// own examples: a curl command and the same call with @cloudapi/client. Nothing here knows an
// area of the API: path, query and header values come from the parameters' examples, the body
// from the request body's first named example, authentication from the operation's `security`.
import { bodiesOf, deref, mediaExamples, parameterExamples } from '@cloudapi/spec/walk';

export const TOKEN_VARIABLE = 'CLOUDAPI_TOKEN';
const CLIENT_PACKAGE = '@cloudapi/client';
// Longest line a sample keeps on one line before it breaks an object over several lines.
const WIDTH = 120;

/** `required`, `optional` (a requirement is `{}`) or `none` (public), from the operation's security. */
export function authOf(document, op) {
  const requirements = op.operation.security ?? document.security ?? [];
  const secured = requirements.filter((r) => Object.keys(r).length > 0);
  if (secured.length === 0) return 'none';
  return secured.length < requirements.length ? 'optional' : 'required';
}

/** The server URL of an operation (operation, then path item, then document), variables filled in. */
export function serverUrlOf(document, op) {
  const pathItem = document.paths?.[op.path] ?? {};
  const [server] = op.operation.servers ?? pathItem.servers ?? document.servers ?? [];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name) => server.variables?.[name]?.default ?? whole);
  return url.replace(/\/+$/, '');
}

function schemaOf(document, schema) {
  return deref(document, schema)[0] ?? {};
}

/** The value a sample uses for a parameter: the best example the spec gives, else one of its type. */
export function parameterValue(document, parameter) {
  const [value] = parameterExamples(document, parameter);
  if (value !== undefined) return value;
  const schema = schemaOf(document, parameter.schema);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return parameter.name;
}

/** Parameters a sample sends: every path parameter, and other parameters that are required or have an example. */
function sentParameters(document, op) {
  return op.parameters
    .filter((p) => p.in === 'path' || p.required || p.example !== undefined || p.examples !== undefined)
    .map((p) => ({ name: p.name, in: p.in, value: parameterValue(document, p) }));
}

/** The request body a sample sends: media type, example value and summary, or null. */
export function requestBodyOf(document, op) {
  const bodies = bodiesOf(document, op).filter((b) => b.kind === 'request');
  if (bodies.length === 0) return null;
  const body = bodies.find((b) => b.mediaType === 'application/json') ?? bodies[0];
  const [example] = mediaExamples(document, body.media);
  const schema = schemaOf(document, body.media.schema);
  const value = example ? example.value : (schema.examples?.[0] ?? schema.example ?? {});
  return { mediaType: body.mediaType, media: body.media, schema, value, summary: example?.summary };
}

function isJsonMediaType(mediaType) {
  return /^application\/(.+\+)?json(;|$)/.test(mediaType);
}

/** Whether a multipart field carries a file: binary format, a content media type or a non-text encoding. */
function isFileField(document, body, name) {
  const property = schemaOf(document, body.schema.properties?.[name]);
  if (property.format === 'binary' || property.contentMediaType || property.contentEncoding) return true;
  const contentType = body.media.encoding?.[name]?.contentType;
  return Boolean(contentType) && !/^(text\/plain|application\/json)/.test(contentType);
}

function fileNameOf(value, name) {
  return typeof value === 'string' && /^[\w][\w.\-/]{0,200}\.\w+$/.test(value) ? value : `${name}.bin`;
}

/** Multipart fields: [{ name, file, value }] from the example, or the schema's required fields. */
function multipartFields(document, body) {
  const value = body.value && typeof body.value === 'object' ? body.value
    : Object.fromEntries((body.schema.required ?? []).map((name) => [name, name]));
  return Object.entries(value).map(([name, v]) => (isFileField(document, body, name)
    ? { name, file: fileNameOf(v, name) }
    : { name, value: typeof v === 'string' ? v : JSON.stringify(v) }));
}

export function expandPath(path, parameters) {
  return path.replace(/\{([^}]+)\}/g, (whole, name) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return parameter ? encodeURIComponent(String(parameter.value)) : whole;
  });
}

function queryString(parameters) {
  const search = new URLSearchParams();
  for (const p of parameters.filter((q) => q.in === 'query')) {
    for (const v of Array.isArray(p.value) ? p.value : [p.value]) search.append(p.name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Single-quotes a shell word. */
export function shellQuote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}

export function curlSample(document, op) {
  const parameters = sentParameters(document, op);
  const auth = authOf(document, op);
  const body = requestBodyOf(document, op);
  const url = `${serverUrlOf(document, op)}${expandPath(op.path, parameters)}${queryString(parameters)}`;
  const method = op.method.toUpperCase();
  const lines = [`curl ${method === 'GET' ? '' : `-X ${method} `}${shellQuote(url)}`];
  if (auth !== 'none') lines.push(`-H "Authorization: Bearer $${TOKEN_VARIABLE}"`);
  for (const p of parameters.filter((h) => h.in === 'header')) lines.push(`-H ${shellQuote(`${p.name}: ${p.value}`)}`);
  const cookies = parameters.filter((c) => c.in === 'cookie').map((c) => `${c.name}=${c.value}`);
  if (cookies.length) lines.push(`--cookie ${shellQuote(cookies.join('; '))}`);
  if (body) {
    if (body.mediaType.startsWith('multipart/form-data')) {
      for (const field of multipartFields(document, body)) {
        lines.push(`-F ${shellQuote(field.file ? `${field.name}=@${field.file}` : `${field.name}=${field.value}`)}`);
      }
    } else if (body.mediaType === 'application/x-www-form-urlencoded') {
      for (const [name, v] of Object.entries(body.value ?? {})) lines.push(`--data-urlencode ${shellQuote(`${name}=${typeof v === 'string' ? v : JSON.stringify(v)}`)}`);
    } else if (isJsonMediaType(body.mediaType)) {
      lines.push(`-H ${shellQuote(`Content-Type: ${body.mediaType}`)}`);
      lines.push(`--data ${shellQuote(JSON.stringify(body.value, null, 2).replace(/\n/g, '\n  '))}`);
    } else {
      lines.push(`-H ${shellQuote(`Content-Type: ${body.mediaType}`)}`);
      lines.push(typeof body.value === 'string' ? `--data-binary ${shellQuote(body.value)}` : `--data-binary @${fileNameOf(undefined, 'body')}`);
    }
  }
  const comments = [
    ...(body?.summary ? [`# ${body.summary}`] : []),
    ...(auth === 'optional' ? ['# The token is optional: without one, only public data.'] : []),
  ];
  return [...comments, lines.join(' \\\n  ')].join('\n');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A JavaScript literal of a JSON value, on one line when it fits in `room` characters. */
export function jsLiteral(value, indent = '', room = WIDTH) {
  const inline = inlineLiteral(value);
  if (inline.length <= room || value === null || typeof value !== 'object') return inline;
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((v) => `${inner}${jsLiteral(v, inner, WIDTH - inner.length - 1)},`)
    : Object.entries(value).map(([k, v]) => {
      const key = IDENTIFIER.test(k) ? k : JSON.stringify(k);
      return `${inner}${key}: ${jsLiteral(v, inner, WIDTH - inner.length - key.length - 3)},`;
    });
  return Array.isArray(value) ? `[\n${entries.join('\n')}\n${indent}]` : `{\n${entries.join('\n')}\n${indent}}`;
}

function inlineLiteral(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(', ')}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${inlineLiteral(v)}`).join(', ')} }`;
}

export function clientSample(document, op) {
  const parameters = sentParameters(document, op);
  const auth = authOf(document, op);
  const body = requestBodyOf(document, op);
  const baseUrl = serverUrlOf(document, op);
  const options = {};
  const params = {};
  for (const location of ['path', 'query', 'header', 'cookie']) {
    const these = parameters.filter((p) => p.in === location);
    if (these.length) params[location] = Object.fromEntries(these.map((p) => [p.name, p.value]));
  }
  if (Object.keys(params).length) options.params = params;

  const imports = [`import { createClient } from "${CLIENT_PACKAGE}";`];
  const setup = [];
  let bodyCode = null;
  if (body && body.mediaType.startsWith('multipart/form-data')) {
    setup.push('const form = new FormData();');
    for (const field of multipartFields(document, body)) {
      if (field.file) {
        if (!imports.some((i) => i.includes('node:fs'))) imports.unshift('import { readFile } from "node:fs/promises";');
        setup.push(`form.append(${JSON.stringify(field.name)}, new Blob([await readFile(${JSON.stringify(field.file)})]), ${JSON.stringify(field.file.split('/').pop())});`);
      } else {
        setup.push(`form.append(${JSON.stringify(field.name)}, ${JSON.stringify(field.value)});`);
      }
    }
    bodyCode = 'form';
  } else if (body) {
    options.body = body.value;
  }

  const clientOptions = `{ baseUrl: ${JSON.stringify(baseUrl)}${auth === 'none' ? '' : `, token: process.env.${TOKEN_VARIABLE}`} }`;
  const head = `const { data, error } = await client.${op.method.toUpperCase()}(${JSON.stringify(op.path)}`;
  let call;
  if (Object.keys(options).length === 0 && !bodyCode) {
    call = `${head});`;
  } else {
    // `form` is spliced in as code, not as a value: it is a variable of the sample.
    const marker = '__FORM_BODY__';
    const printable = bodyCode ? { ...options, body: marker } : options;
    const literal = jsLiteral(printable, '', WIDTH - head.length - 4).replace(JSON.stringify(marker), bodyCode);
    call = `${head}, ${literal});`;
  }
  const comments = [
    ...(body?.summary ? [`// ${body.summary}`] : []),
    ...(auth === 'optional' ? ['// The token is optional: without one, only public data.'] : []),
  ];
  return [...imports, '', `const client = createClient(${clientOptions});`, ...comments, ...setup, call].join('\n');
}

/** Redoc's `x-codeSamples` for one operation. */
export function codeSamples(document, op) {
  return [
    { lang: 'bash', label: 'curl', source: curlSample(document, op) },
    { lang: 'javascript', label: CLIENT_PACKAGE, source: clientSample(document, op) },
  ];
}
