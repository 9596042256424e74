// Compares generated declarations with the bundle they came from, through the TypeScript checker:
// every component schema has a named export; every object schema's properties are optional
// exactly when not required, readonly exactly when readOnly, nullable exactly when the schema
// allows null, and string enums are unions of their values; no request body type holds a
// readonly (server-set) field. Also finds write-only properties reachable from response schemas.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function pointerGet(document, ref) {
  return ref.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, part) => (node == null ? undefined : node[part]), document);
}

function resolve(document, schema) {
  let current = schema;
  for (let i = 0; current && typeof current.$ref === 'string' && i < 32; i++) current = pointerGet(document, current.$ref);
  return current;
}

/** Whether a schema admits null (through a type array, an enum, a oneOf/anyOf branch or a $ref). */
export function admitsNull(document, schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  if ([...(schema.oneOf || []), ...(schema.anyOf || [])].some((s) => admitsNull(document, s, seen))) return true;
  return typeof schema.$ref === 'string' && admitsNull(document, pointerGet(document, schema.$ref), seen);
}

/** JSON schemas of every operation's request and response bodies: [{ where, kind, schema }]. */
export function bodySchemas(document) {
  const out = [];
  for (const [route, item] of Object.entries(document.paths || {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${route}`;
      const requestBody = resolve(document, operation.requestBody);
      for (const [mediaType, media] of Object.entries(requestBody?.content || {})) {
        out.push({ where: `${where} request (${mediaType})`, route, method, mediaType, kind: 'request', schema: media.schema });
      }
      for (const [status, raw] of Object.entries(operation.responses || {})) {
        for (const [mediaType, media] of Object.entries(resolve(document, raw)?.content || {})) {
          out.push({ where: `${where} response ${status} (${mediaType})`, route, method, mediaType, kind: 'response', schema: media.schema });
        }
      }
    }
  }
  return out;
}

/** Properties flagged `flag` (readOnly/writeOnly) reachable from `schema`: ["Schema.prop", ...]. */
export function flaggedProperties(document, schema, flag) {
  const found = new Set();
  const seen = new Set();
  const visit = (node, name) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string') visit(pointerGet(document, node.$ref), node.$ref.split('/').pop());
    for (const [prop, sub] of Object.entries(node.properties || {})) {
      if (sub?.[flag] === true || resolve(document, sub)?.[flag] === true) found.add(`${name}.${prop}`);
      visit(sub, `${name}.${prop}`);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) (node[key] || []).forEach((s) => visit(s, name));
    for (const key of ['items', 'additionalProperties', 'unevaluatedProperties', 'if', 'then', 'else', 'not', 'contains']) visit(node[key], name);
  };
  visit(schema, 'body');
  return [...found];
}

const literal = (value) => JSON.stringify(value);

/**
 * Type-checks the declarations in `files` (name → text; the first is the generated module) with
 * a source that imports it, and compares each object schema of `document` with its named export.
 * Returns { diagnostics: [string], mismatches: [string] }.
 */
export function checkDeclarations(document, declarations) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudapi-types-'));
  try {
    const schemas = Object.keys(document.components?.schemas || {});
    const bodies = bodySchemas(document).filter((b) => b.kind === 'request');
    writeFileSync(path.join(dir, 'generated.d.ts'), declarations);
    const check = [
      "import type * as T from './generated.js';",
      'type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false;',
      'type Expect<X extends true> = X;',
      ...schemas.map((name, i) => `export type Named${i} = Expect<Equal<T.${name}, T.components['schemas'][${literal(name)}]>>;`),
      ...schemas.map((name, i) => `export type Schema${i} = T.components['schemas'][${literal(name)}];`),
      ...bodies.map((b, i) => `export type Body${i} = NonNullable<T.paths[${literal(b.route)}][${literal(b.method)}]['requestBody']>['content'][${literal(b.mediaType)}];`),
      '',
    ].join('\n');
    const checkFile = path.join(dir, 'check.ts');
    writeFileSync(checkFile, check);
    const program = ts.createProgram([checkFile], {
      strict: true, noEmit: true, skipLibCheck: false, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(checkFile);
    const aliases = new Map();
    ts.forEachChild(source, (node) => {
      if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, checker.getTypeAtLocation(node.name));
    });
    const mismatches = [];
    const isReadonly = (symbol) => (symbol.declarations || []).some((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly);
    const isOptional = (symbol) => (symbol.flags & ts.SymbolFlags.Optional) !== 0;
    const parts = (type) => (type.isUnion() ? type.types : [type]);

    schemas.forEach((name, i) => {
      const schema = document.components.schemas[name];
      const type = aliases.get(`Schema${i}`);
      if (!type || !schema?.properties) return;
      const required = new Set(schema.required || []);
      for (const [prop, sub] of Object.entries(schema.properties)) {
        const symbol = checker.getPropertyOfType(type, prop);
        if (!symbol) { mismatches.push(`${name}.${prop}: missing from the type`); continue; }
        if (isOptional(symbol) === required.has(prop)) mismatches.push(`${name}.${prop}: ${required.has(prop) ? 'required' : 'optional'} in the schema, not in the type`);
        const readOnly = sub?.readOnly === true;
        if (isReadonly(symbol) !== readOnly) mismatches.push(`${name}.${prop}: ${readOnly ? '' : 'not '}readOnly in the schema but ${readOnly ? 'not ' : ''}readonly in the type`);
        const propType = checker.getTypeOfSymbol(symbol);
        const hasNull = parts(propType).some((t) => t.flags & ts.TypeFlags.Null);
        if (hasNull !== admitsNull(document, sub)) mismatches.push(`${name}.${prop}: ${hasNull ? 'null in the type but not in the schema' : 'nullable in the schema but not in the type'}`);
        const values = resolve(document, sub)?.enum;
        if (Array.isArray(values) && values.every((v) => typeof v === 'string' || v === null)) {
          const members = parts(propType).filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
          if (members.some((t) => t.flags & ts.TypeFlags.EnumLiteral)) mismatches.push(`${name}.${prop}: enum ${literal(values)} is a TypeScript enum, not a union of literals`);
          const literals = members.map((t) => (t.isStringLiteral() ? t.value : checker.typeToString(t)));
          const expected = values.filter((v) => v !== null);
          if (literals.length !== expected.length || !expected.every((v) => literals.includes(v))) {
            mismatches.push(`${name}.${prop}: enum ${literal(expected)} but type ${literals.join(' | ')}`);
          }
        }
      }
    });

    bodies.forEach((body, i) => {
      const seen = new Set();
      const visit = (type, at) => {
        if (!type || seen.has(type)) return;
        seen.add(type);
        for (const part of parts(type)) {
          if (checker.isArrayType(part) || checker.isTupleType(part)) {
            checker.getTypeArguments(part).forEach((t) => visit(t, `${at}[]`));
            continue;
          }
          if (!(part.flags & ts.TypeFlags.Object) && !part.isIntersection()) continue;
          for (const symbol of checker.getPropertiesOfType(part)) {
            if (isReadonly(symbol)) mismatches.push(`${body.where}: ${at}.${symbol.name} is read-only, yet part of the request type`);
            visit(checker.getTypeOfSymbol(symbol), `${at}.${symbol.name}`);
          }
        }
      };
      visit(aliases.get(`Body${i}`), 'body');
    });
    return { diagnostics, mismatches };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
