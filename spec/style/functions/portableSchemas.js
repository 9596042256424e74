import { isCondition, walkSchema } from './schemaWalk.js';

// Schema shapes that mainstream code generators turn into `any`/`unknown`, drop, or emit broken
// code for (spec/DECISIONS.md section 15). Each has a form every generator reads.
const BRANCHES = new Set(['then', 'else', 'dependentSchemas']);
const CONDITION_KEYS = new Set(['if', 'then', 'else', 'not']);
const ANNOTATIONS = new Set(['description', 'title', '$comment']);
// Keywords that give a property a type of its own (rather than refining one declared elsewhere).
const TYPED = ['type', '$ref', 'oneOf', 'anyOf', 'allOf', 'enum', 'const', 'items', 'properties'];
const SINGLE_CHILDREN = ['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

export default function portableSchemas(schema, options, context) {
  const results = [];
  const report = (message, path) => results.push({ message, path: [...context.path, ...path] });
  walkSchema(schema, (node, path, via, trail) => {
    const hidden = isCondition(trail) || trail.some((k) => BRANCHES.has(k));
    for (const [name, child] of Object.entries(node.properties || {})) {
      if (typeof child === 'boolean') report(`Property "${name}" is the boolean schema ${child}: generators crash or type it any. Forbid a field with "propertyNames: {not: {enum: [${name}]}}" on the object, or give it a schema.`, [...path, 'properties', name]);
    }
    for (const key of SINGLE_CHILDREN) {
      if (typeof node[key] === 'boolean') report(`"${key}: ${node[key]}" is a boolean schema: write it as a schema object generators read (for example "not: {}" or a typed schema).`, [...path, key]);
    }
    if (Array.isArray(node.enum) && node.enum.includes(null)) {
      report('An enum lists null: some generators drop it, others emit code that does not compile. Write a nullable enum as "oneOf: [{type: string, enum: [...]}, {type: \'null\'}]".', [...path, 'enum']);
    }
    if (hidden) return;
    (node.allOf || []).forEach((member, i) => {
      if (!member || typeof member !== 'object' || member.$ref) return;
      const keys = Object.keys(member).filter((k) => !ANNOTATIONS.has(k));
      if (keys.length > 0 && keys.every((k) => CONDITION_KEYS.has(k))) {
        report('An allOf member holds only a condition (if/then/else/not): generators type the whole schema any or unknown. Put the condition beside the properties of the schema itself (one if/then/else chain at its top level, or dependentSchemas).', [...path, 'allOf', i]);
      }
      const properties = Object.values(member.properties || {});
      if (!member.type && properties.length > 0 && properties.every((p) => p && typeof p === 'object' && !TYPED.some((k) => k in p))) {
        report('An allOf member only overrides properties declared elsewhere (no type or $ref of its own): generators type them unknown. Declare each property fully (with its $ref or type) beside the allOf, or move the override into the schema that declares it.', [...path, 'allOf', i]);
      }
    });
    if (node.type) {
      for (const key of ['oneOf', 'anyOf']) {
        (node[key] || []).forEach((branch, i) => {
          if (branch && typeof branch === 'object' && !branch.$ref && !branch.type && ('format' in branch || 'pattern' in branch)) {
            report(`A ${key} branch narrows its parent's type without stating it: generators type the union unknown. Give each branch its type, e.g. "{type: ${Array.isArray(node.type) ? node.type[0] : node.type}, format: ...}".`, [...path, key, i]);
          }
        });
      }
    }
  });
  return results;
}
