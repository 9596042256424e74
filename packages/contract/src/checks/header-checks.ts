// The headers a response declares (`headers` of the response object, read from the bundle): a
// required one must come, and one that comes must match its schema. HTTP carries text, so a value
// is read as the schema's type first (an integer header "30" is the integer 30).
import { escapeToken } from '@cloudapi/spec/json-pointer';
import type { SchemaViews } from '@cloudapi/spec/schema-views';
import { deref } from '@cloudapi/spec/walk';
import { type Check, fail, pass } from './outcome.js';

const NAME = 'declared headers match their schemas';

/** The value of a header as the schema's type reads it: a number, a boolean, or the text. */
export function headerValue(text: string, schema: any): unknown {
  const types: string[] = [].concat(schema?.type ?? []);
  if (types.some((t) => t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text.trim());
  if (types.includes('boolean') && /^(true|false)$/.test(text.trim())) return text.trim() === 'true';
  return text;
}

/** One check of the declared headers of an answer's response, or none when it declares none. */
export function declaredHeaderChecks(document: any, views: Pick<SchemaViews, 'validate'>, response: { response: any; pointer: string }, headers: Record<string, string | string[] | undefined>): Check[] {
  const declared = Object.entries<any>(response.response?.headers ?? {});
  if (!declared.length) return [];
  const problems: string[] = [];
  for (const [name, raw] of declared) {
    if (name.toLowerCase() === 'content-type') continue; // OpenAPI ignores a declared Content-Type
    const [header, at] = deref(document, raw, `${response.pointer}/headers/${escapeToken(name)}`);
    const value = headers[name.toLowerCase()];
    if (value === undefined) {
      if (header?.required) problems.push(`${name} is required and missing`);
      continue;
    }
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (!header?.schema) continue;
    const result = views.validate('response', `${at}/schema`, headerValue(text, header.schema));
    if (!result.valid) problems.push(`${name}: "${text}" ${result.errors.slice(0, 2).map((e: any) => e.message).join('; ')}`);
  }
  return [problems.length ? fail(NAME, problems.join('; ')) : pass(NAME)];
}
