// One walk over the properties a schema declares, wherever they sit: in the schema itself and in
// every subschema (allOf/oneOf/anyOf/prefixItems members, items, then/else, additionalProperties,
// unevaluatedProperties, patternProperties), each schema once. The checks (which names an answer
// may carry) and the harvest (which fields name ids) both read schemas this way.

/**
 * Calls `visit` with each property's name, its schema as written (a `$ref` or inline) and that
 * schema resolved; `visit` returning false leaves out what lies below that property.
 */
export function walkProperties(root: unknown, resolve: (node: any) => any, visit: (name: string, raw: any, property: any) => boolean | void, maxDepth = 24): void {
  const seen = new Set<unknown>();
  const walk = (node: unknown, depth: number): void => {
    const schema = resolve(node);
    if (!schema || typeof schema !== 'object' || seen.has(schema) || depth > maxDepth) return;
    seen.add(schema);
    for (const [name, raw] of Object.entries<any>(schema.properties ?? {})) {
      if (visit(name, raw, resolve(raw)) !== false) walk(raw, depth + 1);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf', 'prefixItems']) for (const part of schema[key] ?? []) walk(part, depth + 1);
    for (const key of ['items', 'then', 'else', 'additionalProperties', 'unevaluatedProperties']) if (schema[key] && typeof schema[key] === 'object') walk(schema[key], depth + 1);
    for (const part of Object.values(schema.patternProperties ?? {})) walk(part, depth + 1);
  };
  walk(root, 0);
}
