import { resolvedRoot } from './schemaWalk.js';

// House security style: every operation states its security explicitly. A public operation says
// `security: []`. A secured one lists the same scopes under personalAccessToken and oauth (one
// requirement object each), and may add `{}` when a token is optional. Scopes must exist in the
// oauth scheme's flows.
export default function operationSecurity(operation, options, context) {
  if (!operation || typeof operation !== 'object') return [];
  const here = [...context.path, 'security'];
  const fix = `list the scopes as "security: [{personalAccessToken: [scope, ...]}, {oauth: [scope, ...]}]", or write "security: []" for a public operation`;
  if (!Array.isArray(operation.security)) {
    return [{ message: `Operation has no security: ${fix}.`, path: context.path }];
  }
  const reqs = operation.security;
  if (reqs.length === 0) return [];
  const results = [];
  const [tokenScheme, oauthScheme] = options.schemes;
  const byScheme = {};
  let anonymous = 0;
  for (const req of reqs) {
    const names = Object.keys(req || {});
    if (names.length === 0) { anonymous++; continue; }
    if (names.length > 1) {
      results.push({ message: `A security requirement names ${names.join(' and ')} together, which would demand both tokens at once: ${fix}.`, path: here });
      continue;
    }
    const name = names[0];
    if (!options.schemes.includes(name)) {
      results.push({ message: `Unknown security scheme "${name}": use ${options.schemes.join(' and ')}.`, path: here });
      continue;
    }
    if (byScheme[name]) results.push({ message: `Security scheme "${name}" is listed twice: ${fix}.`, path: here });
    byScheme[name] = req[name];
  }
  if (anonymous > 1) results.push({ message: 'The empty requirement {} (token optional) may appear once.', path: here });
  for (const name of options.schemes) {
    if (!byScheme[name]) results.push({ message: `Secured operation lacks a requirement for "${name}": ${fix}.`, path: here });
  }
  const tokenScopes = byScheme[tokenScheme];
  const oauthScopes = byScheme[oauthScheme];
  if (tokenScopes && oauthScopes) {
    const a = [...tokenScopes].sort().join(' ');
    const b = [...oauthScopes].sort().join(' ');
    if (a !== b) results.push({ message: `Scopes differ between ${tokenScheme} [${a}] and ${oauthScheme} [${b}]: list the same scopes under both.`, path: here });
    if (oauthScopes.length === 0) results.push({ message: `A secured operation must name at least one scope.`, path: here });
  }
  const root = resolvedRoot(context);
  const flows = root && root.components && root.components.securitySchemes &&
    root.components.securitySchemes[oauthScheme] && root.components.securitySchemes[oauthScheme].flows;
  if (flows) {
    const known = new Set(Object.values(flows).flatMap((f) => Object.keys((f && f.scopes) || {})));
    for (const scope of new Set([...(tokenScopes || []), ...(oauthScopes || [])])) {
      if (!known.has(scope)) results.push({ message: `Scope "${scope}" is not defined in the ${oauthScheme} flows of spec/openapi.yaml: fix the name or define the scope there.`, path: here });
    }
  }
  return results;
}
