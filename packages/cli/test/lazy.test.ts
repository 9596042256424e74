// `cloudapi --help` starts fast because the heavy modules (the client, Ajv and the bundle it
// validates with) load only when a command runs: the built entry point and the chunks it imports
// statically hold none of them (npm run bench measures the time itself).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dist = new URL('../dist/', import.meta.url);
const staticImports = (file: string) => [...readFileSync(new URL(file, dist), 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)].map((m) => m[1] ?? m[2]!);
const dynamicImports = (file: string) => [...readFileSync(new URL(file, dist), 'utf8').matchAll(/import\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!);

/** Every module the entry point loads before running anything: itself and its static imports, followed. */
function loadedAtStart(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const specifier of staticImports(queue.shift()!)) {
      if (seen.has(specifier)) continue;
      seen.add(specifier);
      if (specifier.startsWith('./')) queue.push(specifier);
    }
  }
  return [...seen];
}

const HEAVY = /^(@cloudapi\/client|@cloudapi\/spec|ajv)/;

describe('start-up', () => {
  it('loads neither the client nor Ajv nor the bundle to print help', () => {
    expect(loadedAtStart('main.js').filter((specifier) => HEAVY.test(specifier))).toEqual([]);
  });

  it('loads them when a command runs (the check above can fail)', () => {
    const execute = dynamicImports('main.js').find((specifier) => specifier.startsWith('./execute'));
    expect(execute).toBeDefined();
    expect(loadedAtStart(execute!)).toEqual(expect.arrayContaining(['@cloudapi/client', '@cloudapi/spec/schema-views']));
  });
});
