// Recorded traffic of the real service, replayed against the bundle: every request the service
// took must pass our request schema and every answer our response schema, unless the failure is
// explained by redaction, by something the service added after release 4.115.0 against a rule of
// the requirements (a conflict, listed in DECISIONS.md), or by an endpoint we do not specify (test/replay/replay.mjs says how each is decided). The recordings
// are read where they are kept (REALDATA_DIR, or ../shared/realdata/linodego-cassettes beside
// the repository); they are never copied here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASSES, HISTORY_ENTRIES, loadCassettes, replay } from './replay/replay.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();

function cassetteDir() {
  const candidates = [
    process.env.REALDATA_DIR,
    path.resolve(specDir, '..', '..', 'shared', 'realdata', 'linodego-cassettes'),
    '/work/shared/realdata/linodego-cassettes',
  ].filter(Boolean);
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) {
    throw new Error(`No recorded traffic found (looked in ${candidates.join(', ')}). Point REALDATA_DIR at the folder of go-vcr cassettes (linodego-cassettes).`);
  }
  return found;
}

const summary = (result) => CLASSES.map((c) => `${c}: ${result.counts[c]}`).join(', ');
const defects = (result) => result.failures.filter((f) => f.class === 'our defect')
  .map((f) => `${f.file}#${f.index} ${f.request} → ${f.operationId} ${f.what}: ${f.reasons.slice(0, 5).join('; ')}`);

describe('recorded traffic of the real service', () => {
  const dir = cassetteDir();
  const interactions = loadCassettes(dir);
  const result = replay(bundle, interactions);

  it('passes our schemas, with every failure explained (zero "our defect")', () => {
    console.log(`replayed ${result.interactions} interactions from ${dir}: ${result.checks} bodies compared, ${result.skipped} 5xx skipped; failures by class: ${summary(result)}`);
    expect(result.interactions).toBeGreaterThan(100);
    expect(result.checks).toBeGreaterThan(100);
    expect(defects(result)).toEqual([]);
  });

  it('lists each conflict with the requirements, and DECISIONS.md section 14 names its rule', () => {
    const conflicts = result.failures.filter((f) => f.class === 'conflict with the requirements');
    const rules = [...new Set(conflicts.flatMap((f) => f.reasons.filter((r) => r !== 'and a recorder mask')))].sort();
    console.log(`conflicts with the requirements (${conflicts.length} bodies):\n${rules.map((r) => `  ${r}: ${conflicts.filter((f) => f.reasons.includes(r)).length}`).join('\n')}`);
    expect(rules.length).toBeGreaterThan(0);
    const decisions = readFileSync(path.join(specDir, 'DECISIONS.md'), 'utf8');
    const section = decisions.slice(decisions.indexOf('## 14.'), decisions.indexOf('## 15.'));
    for (const rule of rules) expect(section, `DECISIONS.md section 14 names the conflict "${rule}"`).toContain(rule);
  });

  it('reports a spec that refuses what the service sent or answered as our defect (the check can fail)', () => {
    const broken = structuredClone(bundle);
    // What the first version of the spec did: refuse null for unset optional fields, and require
    // a field the service's kernels no longer send.
    const tags = broken.components.schemas.VolumeCreateRequest.properties.tags;
    tags.type = 'array';
    broken.components.schemas.ComputeKernel.required.push('xen');
    const found = replay(broken, interactions).failures.filter((f) => f.class === 'our defect');
    expect(found.some((f) => f.operationId === 'createVolume' && f.reasons.some((r) => r.includes('/tags must be array')))).toBe(true);
    expect(found.some((f) => f.operationId === 'listComputeKernels' && f.reasons.some((r) => r.includes("required property 'xen'")))).toBe(true);
  });
});

// The classes, on interactions written here: the rules must not depend on which recordings exist.
describe('classification of failures', () => {
  const interaction = (method, url, requestBody, status, responseBody) => ({
    file: 'synthetic.yaml', index: 0, method: method.toLowerCase(), url, requestBody: requestBody === undefined ? '' : JSON.stringify(requestBody), status, responseBody: JSON.stringify(responseBody),
  });
  const volume = {
    id: 1, label: 'vol', status: 'active', size: 20, region: 'us-east', compute_id: null, compute_label: null,
    filesystem_path: '/dev/disk/by-id/scsi-0Volume_vol', created: '2018-01-02T03:04:05', updated: '2018-01-02T03:04:05', tags: [],
  };
  const classOf = (it) => {
    const { failures } = replay(bundle, [it]);
    return failures.map((f) => f.class);
  };

  it('passes what our schemas accept, with the service\'s names mapped to ours', () => {
    const instanceVolumes = { data: [{ ...volume, linode_id: 7, linode_label: 'web' }], page: 1, pages: 1, results: 1 };
    expect(classOf(interaction('GET', 'https://api.linode.com/v4/linode/instances/7/volumes', undefined, 200, instanceVolumes))).toEqual([]);
  });

  it('puts a path no operation has under unknown endpoint, and a newer endpoint our templates would match too', () => {
    expect(classOf(interaction('GET', 'https://api.linode.com/v4/linode/instances/7/disks', undefined, 200, { data: [] }))).toEqual(['unknown endpoint']);
    expect(classOf(interaction('GET', 'https://api.linode.com/v4beta/volumes/types', undefined, 200, { data: [] }))).toEqual(['unknown endpoint']);
  });

  it('names, for every field or value the service added after 4.115.0, the rule of the requirements it contradicts', () => {
    const unnamed = HISTORY_ENTRIES.filter((entry) => typeof entry.requirement !== 'string' || entry.requirement.length < 10);
    expect(unnamed.map((entry) => entry.reason)).toEqual([]);
  });

  it('puts a field the service added after 4.115.0 under conflict, with the rule listing the fields of that body', () => {
    const { failures } = replay(bundle, [interaction('POST', 'https://api.linode.com/v4/volumes', { label: 'vol', region: 'us-east', encryption: 'enabled' }, 200, volume)]);
    expect(failures.map((f) => [f.class, f.reasons])).toEqual([['conflict with the requirements', ['POST /volumes: label (Req), size, region, compute_id, config_id, tags']]]);
  });

  it('puts what contradicts a stated rule of the requirements under conflict, with every rule it breaks', () => {
    const bucket = { label: 'b', region: 'us-east' };
    const { failures } = replay(bundle, [interaction('POST', 'https://api.linode.com/v4/object-storage/buckets', bucket, 200, undefined)]);
    expect(failures.map((f) => [f.class, f.reasons])).toEqual([['conflict with the requirements', ['Bucket `cluster`: Req (POST /object-storage/buckets: label (Req), cluster (Req))']]]);
    const both = replay(bundle, [interaction('POST', 'https://api.linode.com/v4/object-storage/buckets', { ...bucket, endpoint_type: 'E1' }, 200, undefined)]).failures;
    expect(both.map((f) => [f.class, [...f.reasons].sort()])).toEqual([['conflict with the requirements', [
      'Bucket `cluster`: Req (POST /object-storage/buckets: label (Req), cluster (Req))',
      'POST /object-storage/buckets: label (Req), cluster (Req), acl, cors_enabled',
    ]]]);
  });

  it('puts a failure caused only by a masked address under redaction', () => {
    const node = { id: 1, config_id: 2, balancer_id: 3, address: '192.0.2.0:80', label: 'node', status: 'UP', weight: 50, mode: 'accept' };
    expect(classOf(interaction('GET', 'https://api.linode.com/v4/nodebalancers/3/configs/2/nodes/1', undefined, 200, node))).toEqual(['redaction']);
  });

  it('puts anything else under our defect, a masked value with a real problem included', () => {
    expect(classOf(interaction('POST', 'https://api.linode.com/v4/volumes', { label: 'vol', region: 'us-east', colour: 'blue' }, 200, volume))).toEqual(['our defect']);
    const node = { id: 1, config_id: 2, balancer_id: 3, address: '192.0.2.0:80', label: 'node', status: 'SIDEWAYS', weight: 50, mode: 'accept' };
    expect(classOf(interaction('GET', 'https://api.linode.com/v4/nodebalancers/3/configs/2/nodes/1', undefined, 200, node))).toEqual(['our defect']);
  });

  it('does not hold a request against us that the service refused too', () => {
    expect(classOf(interaction('POST', 'https://api.linode.com/v4/volumes', { label: 'vol', colour: 'blue' }, 400, { errors: [{ reason: 'region is required' }] }))).toEqual([]);
  });
});
