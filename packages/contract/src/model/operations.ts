// The kit's view of the bundle: each operation with what the kit needs to call it (security,
// scopes, grants, parameters, request body, responses) and the OpenAPI `links` of its success
// answers, from which the stateful sequences are built. Everything is read from the document;
// nothing about a particular API is written here.
import { loadBundle, securityOf as securityViewOf, type Access } from '@cloudapi/spec/bundle';
import { valueAtPointer } from '@cloudapi/spec/json-pointer';
import { pointerGet } from '@cloudapi/spec/schema-views';
import { schemaParts } from '@cloudapi/spec/schema-walk';
import { bodiesOf, deref, mediaExamples, operations, parameterExamples as examplesOfParameter, type WalkedOperation, type WalkedParameter } from '@cloudapi/spec/walk';
import { isJsonMedia } from '../transport/http.js';
import { sampleValue } from './values.js';

/** The bundle: `@cloudapi/spec`'s by default, or a JSON or YAML file. */
export const loadDocument: (file?: string) => any = loadBundle;

export type Security = Access;

/** A runtime expression of a link parameter, parsed. */
export type Expression =
  | { from: 'response.body'; pointer: string }
  | { from: 'request.path' | 'request.query' | 'request.header' | 'response.header'; name: string }
  | { from: 'request.body'; pointer: string }
  | { from: 'constant'; value: unknown };

export interface Link {
  name: string;
  /** operationId of the target */
  target: string;
  /** target parameter name → how to get its value */
  parameters: Record<string, Expression>;
}

/**
 * `x-presigned-url`: the answer holds a URL usable without a token; where the URL is, and the
 * request fields that give its method, the Content-Type its request carries, and its object.
 */
export interface PresignedUrl {
  url: Expression;
  method: Expression;
  contentType?: Expression;
  object?: Expression;
}

export interface RequestBodyPlan {
  mediaType: string;
  schemaPointer: string;
  examples: { name: string; value: any }[];
  binaryFields: Set<string>;
  encoding?: Record<string, any>;
  required: boolean;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  pointer: string;
  tags: string[];
  index: number;
  parameters: WalkedParameter[];
  raw: any;
  security: Security;
  /** scopes of the first security requirement that names any (all needed at once) */
  scopes: string[];
  /** x-account-grants */
  grants: string[];
  body: RequestBodyPlan | null;
  /** links of the success responses */
  links: Link[];
  /** a method that changes state (anything but GET and HEAD) */
  writes: boolean;
  /** a destructive action (on one object or the whole account): a POST whose operationId starts with cancel, purge... */
  destructive: boolean;
  /** a GET whose success answer is a page of the list envelope */
  list: boolean;
  /** its answer is a URL to use as it is (`x-presigned-url`) */
  presigned?: PresignedUrl;
}

const DESTRUCTIVE_VERB = /^(cancel|purge|destroy|wipe|reset)[A-Z]/;
const PAGE_FIELDS = ['data', 'page', 'pages', 'results'];

export function securityOf(document: any, operation: any): Security {
  return securityViewOf(document, operation).access;
}

/** `$response.body#/id`, `$request.path.domainId` and the other runtime expressions links use. */
export function parseExpression(raw: unknown): Expression {
  if (typeof raw !== 'string' || !raw.startsWith('$')) return { from: 'constant', value: raw };
  let m = /^\$response\.body(?:#(.*))?$/.exec(raw);
  if (m) return { from: 'response.body', pointer: decodeURIComponent(m[1] ?? '') };
  m = /^\$request\.body(?:#(.*))?$/.exec(raw);
  if (m) return { from: 'request.body', pointer: decodeURIComponent(m[1] ?? '') };
  m = /^\$(request|response)\.(path|query|header)\.(.+)$/.exec(raw);
  if (m) return { from: `${m[1]}.${m[2]}` as 'request.path', name: m[3] as string };
  return { from: 'constant', value: raw };
}

/** The value at a JSON pointer (`/image/id`) inside a parsed body; `/` is the body itself, as links use it. */
export function valueAt(value: unknown, pointer: string): unknown {
  return !pointer || pointer === '/' ? value : valueAtPointer(value, pointer);
}

function linksOf(document: any, op: WalkedOperation): Link[] {
  const links: Link[] = [];
  for (const [status, raw] of Object.entries<any>(op.operation.responses || {})) {
    if (!/^2/.test(status)) continue;
    const [response] = deref(document, raw);
    for (const [name, rawLink] of Object.entries<any>(response?.links || {})) {
      const [link] = deref(document, rawLink);
      if (!link?.operationId) continue; // operationRef links are not followed
      const parameters: Record<string, Expression> = {};
      for (const [param, expression] of Object.entries(link.parameters || {})) {
        parameters[param.replace(/^(path|query|header)\./, '')] = parseExpression(expression);
      }
      links.push({ name, target: link.operationId, parameters });
    }
  }
  return links;
}

function isListAnswer(document: any, op: WalkedOperation, resolve: (node: any) => any): boolean {
  if (op.method !== 'get') return false;
  const ok = Object.entries<any>(op.operation.responses || {}).find(([code]) => /^2/.test(code));
  if (!ok) return false;
  const [response] = deref(document, ok[1]);
  const schema = resolve(response?.content?.['application/json']?.schema);
  const names = new Set<string>();
  for (const part of schemaParts(schema, { resolve, keywords: ['allOf'] })) {
    for (const n of Object.keys(part.properties || {})) names.add(n);
    for (const n of part.required || []) names.add(n);
  }
  return PAGE_FIELDS.every((f) => names.has(f));
}

/** The request body the kit sends: a JSON media type if there is one, with its examples. */
function requestBodyOf(document: any, op: WalkedOperation, resolve: (node: any) => any): RequestBodyPlan | null {
  const bodies = bodiesOf(document, op).filter((b) => b.kind === 'request');
  if (!bodies.length) return null;
  const body = bodies.find((b) => isJsonMedia(b.mediaType)) || bodies[0]!;
  const schema = resolve(pointerGet(document, body.schemaPointer)) || {};
  let examples = mediaExamples(document, body.media).map((e) => ({ name: e.name, value: e.value }));
  if (!examples.length) {
    const value = sampleValue(schema, resolve);
    if (value !== undefined) examples = [{ name: 'built from the schema', value }];
  }
  const binaryFields = new Set(Object.entries<any>(schema.properties || {})
    .filter(([, p]) => { const s = resolve(p) || {}; return s.format === 'binary' || s.contentMediaType !== undefined || s.contentEncoding !== undefined; })
    .map(([name]) => name));
  const required = Boolean(pointerGet(document, body.schemaPointer.replace(/\/content\/[^/]+\/schema$/, ''))?.required);
  return { mediaType: body.mediaType, schemaPointer: body.schemaPointer, examples, binaryFields, encoding: body.media.encoding, required };
}

function presignedOf(raw: any): PresignedUrl | undefined {
  if (!raw || typeof raw !== 'object' || raw.url === undefined || raw.method === undefined) return undefined;
  const optional = (value: unknown) => (value === undefined ? undefined : parseExpression(value));
  return { url: parseExpression(raw.url), method: parseExpression(raw.method), contentType: optional(raw.content_type), object: optional(raw.object) };
}

/** Every operation of the document, in document order, with what the kit needs to call it. */
export function modelOperations(document: any, resolve: (node: any) => any): Operation[] {
  return [...operations(document)].map((op, index) => {
    const operation = op.operation;
    const security = securityViewOf(document, operation);
    const id: string = operation.operationId || `${op.method.toUpperCase()} ${op.path}`;
    return {
      id,
      method: op.method,
      path: op.path,
      pointer: op.pointer,
      tags: operation.tags || [],
      index,
      parameters: op.parameters,
      raw: operation,
      security: security.access,
      scopes: security.scopes,
      grants: operation['x-account-grants'] || [],
      body: requestBodyOf(document, op, resolve),
      links: linksOf(document, op),
      writes: !['get', 'head'].includes(op.method),
      destructive: op.method === 'post' && DESTRUCTIVE_VERB.test(id),
      list: isListAnswer(document, op, resolve),
      presigned: presignedOf(operation['x-presigned-url']),
    };
  });
}

/** The example values of a parameter, best first: those the spec gives, then one built from its schema. */
export function parameterExamples(document: any, parameter: WalkedParameter, resolve: (node: any) => any): unknown[] {
  const values = examplesOfParameter(document, parameter);
  const built = sampleValue(parameter.schema || {}, resolve);
  return built === undefined ? values : [...values, built];
}

export const pathParameterNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
