// Which operation a method and path name, as the HTTP server's router (find-my-way) decides it
// from the routes http/route.ts registers: the same URL forms (`/v4/images/{imageId}` with the
// id percent-encoded, and unencoded where an id holds a slash), a literal segment before a
// parameter in the same place (`/domains/import` before `/domains/{domainId}`), path parameters
// percent-decoded. HEAD is served as GET.
import type { OperationSpec } from '../spec.js';
import { routeUrls } from './route-urls.js';

export interface Routed {
  op: OperationSpec;
  /** Path parameters by name, decoded. */
  params: Record<string, string>;
}

interface Route {
  op: OperationSpec;
  regex: RegExp;
  names: string[];
  /** Per segment: 0 for a literal, 1 for a parameter, 2 for the trailing wildcard (the order find-my-way tries them). */
  rank: number[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(op: OperationSpec, url: string, wildcardParam: string | undefined): Route {
  const names: string[] = [];
  const rank: number[] = [];
  const pattern = url.split('/').slice(1).map((segment) => {
    if (segment === '*') {
      names.push(wildcardParam!);
      rank.push(2);
      return '(.+)';
    }
    if (segment.startsWith(':')) {
      names.push(segment.slice(1));
      rank.push(1);
      return '([^/]+)';
    }
    rank.push(0);
    return escape(segment);
  });
  return { op, regex: new RegExp(`^/${pattern.join('/')}$`), names, rank };
}

function compareRank(a: Route, b: Route): number {
  for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i++) if (a.rank[i] !== b.rank[i]) return a.rank[i]! - b.rank[i]!;
  return a.rank.length - b.rank.length;
}

/** A router over the operations: `route(method, path)` with the path as sent (percent-encoded), or null. */
export function createRouter(basePath: string, operations: readonly OperationSpec[]) {
  const byMethod = new Map<string, Route[]>();
  for (const op of operations) {
    const routes = byMethod.get(op.method) ?? [];
    for (const { url, wildcardParam } of routeUrls(basePath, op)) routes.push(compile(op, url, wildcardParam));
    byMethod.set(op.method, routes);
  }
  for (const routes of byMethod.values()) routes.sort(compareRank);
  return (method: string, path: string): Routed | null => {
    for (const route of byMethod.get(method === 'HEAD' ? 'GET' : method) ?? []) {
      const match = route.regex.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => { params[name] = decodeURIComponent(match[i + 1]!); });
      } catch {
        continue; // a malformed escape: no route takes it
      }
      return { op: route.op, params };
    }
    return null;
  };
}
