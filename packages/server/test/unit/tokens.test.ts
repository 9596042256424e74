// The tokens file: its format (DESIGN.md), and a clear error naming the entry for every problem.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearerToken, hasScope, loadTokensFile } from '../../src/core/auth.js';
import { loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from '../../src/core/spec.js';
import { tempDir } from '../harness/harness.js';

const spec = describeBundle(loadBundle());
const dir = tempDir('tokens-unit');
const file = (name: string, content: string) => {
  const full = path.join(dir, name);
  writeFileSync(full, content);
  return full;
};

describe('tokens file', () => {
  it('reads the documented format and keeps only hashes of the tokens', () => {
    const table = loadTokensFile(file('ok.json', JSON.stringify([
      { token: 'alpha', scopes: '*', grants: 'all', restricted: false },
      { token: 'beta', scopes: 'volumes:read_only domains:read_write', grants: ['add_volumes', 'volume:read_write', 'image:15:read_only'], restricted: true },
      { token: 'gamma', scopes: 'images:read_only' },
    ])), spec);
    expect(table.size).toBe(3);
    const beta = table.lookup('beta')!;
    expect(beta).toMatchObject({ restricted: true, tokenId: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(JSON.stringify([...(beta.scopes as Set<string>)])).not.toContain('beta');
    expect(hasScope(beta, 'volumes:read_only')).toBe(true);
    expect(hasScope(beta, 'domains:read_only')).toBe(true);
    expect(hasScope(beta, 'volumes:read_write')).toBe(false);
    expect(table.lookup('gamma')).toMatchObject({ grants: 'all', restricted: false });
    expect(table.lookup('delta')).toBeUndefined();
  });

  const problems: [string, unknown, RegExp][] = [
    ['not-json', '{', /is not JSON/],
    ['not-a-list', { token: 'a' }, /non-empty JSON array/],
    ['empty', [], /non-empty JSON array/],
    ['no-token', [{ scopes: '*' }], /entry 0: token must be/],
    ['spaced-token', [{ token: 'a b', scopes: '*' }], /entry 0: token must be/],
    ['bad-scope', [{ token: 'a', scopes: '*' }, { token: 'b', scopes: 'volume:read_only' }], /entry 1: scopes: unknown scope "volume:read_only"/],
    ['no-scopes', [{ token: 'a' }], /entry 0: scopes must be/],
    ['bad-grant', [{ token: 'a', scopes: '*', grants: ['add_everything'] }], /entry 0: grants: "add_everything" is not an account grant/],
    ['bad-entity', [{ token: 'a', scopes: '*', grants: ['robot:read_only'] }], /entry 0: grants: "robot:read_only" names an unknown kind/],
    ['bad-level', [{ token: 'a', scopes: '*', grants: ['volume:write'] }], /must end in read_only or read_write/],
    ['grants-type', [{ token: 'a', scopes: '*', grants: 'some' }], /entry 0: grants must be "all" or a list/],
    ['restricted-type', [{ token: 'a', scopes: '*', restricted: 'yes' }], /entry 0: restricted must be true or false/],
    ['unknown-field', [{ token: 'a', scopes: '*', role: 'admin' }], /entry 0: unknown field "role"/],
    ['twice', [{ token: 'a', scopes: '*' }, { token: 'a', scopes: '*' }], /entry 1: the same token is listed twice/],
  ];
  for (const [name, content, message] of problems) {
    it(`refuses a file with ${name.replace(/-/g, ' ')}, naming the entry`, () => {
      const full = file(`${name}.json`, typeof content === 'string' ? content : JSON.stringify(content));
      expect(() => loadTokensFile(full, spec)).toThrow(message);
      expect(() => loadTokensFile(full, spec)).toThrow(full);
    });
  }

  it('refuses a file that cannot be read', () => {
    expect(() => loadTokensFile(path.join(dir, 'missing.json'), spec)).toThrow(/cannot be read: ENOENT/);
  });
});

describe('the Authorization header', () => {
  it('takes "Bearer <token>" with the scheme in any case, and nothing else', () => {
    expect(bearerToken('Bearer abc')).toEqual({ token: 'abc' });
    expect(bearerToken('bearer abc')).toEqual({ token: 'abc' });
    expect(bearerToken('BEARER  abc ')).toEqual({ token: 'abc' });
    for (const header of [undefined, '', 'abc', 'Basic abc', 'Bearer', 'Bearer a b', 'Bearerabc']) expect(bearerToken(header)).toHaveProperty('problem');
  });
});
