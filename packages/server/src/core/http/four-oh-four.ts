// Paths no route answers: 405 with an `Allow` header when the path exists with other methods,
// else 404; OPTIONS on any path of the API answers 204 with the path's methods in `Allow` (what a
// CORS preflight starts from).
import type { FastifyInstance } from 'fastify';
import type { ApiSpec } from '../spec.js';
import type { SendError } from './error-handler.js';

/** The path template as a regular expression. */
function templateRegex(basePath: string, path: string): RegExp {
  const escaped = `${basePath}${path}`.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

/** The methods a path is served with (HEAD beside GET, OPTIONS on every path), or none. */
export function allowedMethods(spec: ApiSpec): (path: string) => string[] {
  const templates = new Map<string, { regex: RegExp; methods: Set<string> }>();
  for (const op of spec.operations) {
    const entry = templates.get(op.path) ?? { regex: templateRegex(spec.basePath, op.path), methods: new Set<string>() };
    entry.methods.add(op.method);
    templates.set(op.path, entry);
  }
  return (path) => {
    const allowed = new Set<string>();
    for (const { regex, methods } of templates.values()) if (regex.test(path)) for (const m of methods) allowed.add(m);
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.size) allowed.add('OPTIONS');
    return [...allowed].sort();
  };
}

export function answerUnrouted(app: FastifyInstance, spec: ApiSpec, sendError: SendError): void {
  const allowedOn = allowedMethods(spec);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedOn(path);
    if (allowed.length && !allowed.includes(request.method)) {
      const allow = allowed.join(', ');
      return sendError(reply, 405, [{ reason: `${request.method} is not allowed on this path; allowed: ${allow}` }], { allow });
    }
    return sendError(reply, 404, [{ reason: `No operation at ${request.method} ${path}` }]);
  });
  app.options(`${spec.basePath}/*`, (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedOn(path);
    if (!allowed.length) return sendError(reply, 404, [{ reason: `No operation at ${path}` }]);
    return reply.code(204).header('allow', allowed.join(', ')).send();
  });
}
