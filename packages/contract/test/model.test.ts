// What the kit reads from the bundle: links as runtime expressions, the kinds of resources they
// describe (how each is read, listed, changed and deleted), references in bodies, secrets, and
// the scope probes a tokens file allows; the model of a bundle, made once per content.
import { describe, expect, it } from 'vitest';
import { loadDocument, parseExpression, probesFor, resourceKinds } from '../src/index.js';
import { bundleModel } from '../src/run/plan.js';
import { secretNamesOf } from '../src/checks/answers.js';
import { referenceParameter, ResourceRegistry } from '../src/model/resources.js';
import { allOperations, document, tokens } from './support.js';

const op = (id: string) => allOperations.find((o) => o.id === id)!;

describe('links', () => {
  it('are read as runtime expressions of any form', () => {
    expect(parseExpression('$response.body#/image/id')).toEqual({ from: 'response.body', pointer: '/image/id' });
    expect(parseExpression('$request.path.domainId')).toEqual({ from: 'request.path', name: 'domainId' });
    expect(parseExpression('$request.body#/label')).toEqual({ from: 'request.body', pointer: '/label' });
    expect(parseExpression('$response.header.Location')).toEqual({ from: 'response.header', name: 'Location' });
    expect(parseExpression('fixed')).toEqual({ from: 'constant', value: 'fixed' });
  });

  it('give every create of the bundle a kind with its read, list, updates and delete', () => {
    const kinds = resourceKinds(allOperations);
    // A create whose new object has no address of its own (a managed service, a ticket reply)
    // links to the list it joins, carrying nothing from its answer: it makes no kind.
    const carriesKey = (o: (typeof allOperations)[number]) => o.links.some((l) => Object.values(l.parameters).some((e) => e.from === 'response.body'));
    const creates = allOperations.filter(carriesKey).map((o) => o.id);
    expect(allOperations.filter((o) => o.links.length && !carriesKey(o)).map((o) => o.id).sort()).toEqual(['createManagedService', 'createTicketReply']);
    expect(creates.length).toBeGreaterThanOrEqual(16);
    for (const id of creates) expect([...kinds.values()].some((k) => k.creators.includes(id)), id).toBe(true);
    expect(kinds.get('/volumes/{volumeId}')).toMatchObject({ keyParams: ['volumeId'], creators: ['createVolume', 'cloneVolume'], read: 'getVolume', list: 'listVolumes', updates: ['updateVolume'], remove: 'deleteVolume' });
    expect(kinds.get('/object-storage/buckets/{clusterId}/{bucket}')).toMatchObject({ keyParams: ['bucket', 'clusterId'], keyPointers: { clusterId: '/cluster', bucket: '/label' }, remove: 'deleteBucket', list: 'listBuckets' });
    expect(kinds.get('/images/{imageId}')).toMatchObject({ creators: ['createImage', 'uploadImage'], keyPointers: { imageId: '/id' }, remove: 'deleteImage' });
    expect(kinds.get('/tags/{label}')).toMatchObject({ keyPointers: { label: '/label' }, remove: 'deleteTag', list: 'listTags' });
    // The same key name in two places is two kinds.
    expect(kinds.get('/compute/instances/{computeId}/configs/{configId}')!.creators).toEqual(['createComputeConfig']);
    expect(kinds.get('/balancers/{balancerId}/configs/{configId}')!.creators).toEqual(['createBalancerConfig']);
  });

  it('a delete removes what it addresses and what lies below it, not another kind\'s object of the same key name', () => {
    const registry = new ResourceRegistry(resourceKinds(allOperations), new Map(allOperations.map((o) => [o.id, o])));
    const made = (id: string, path: Record<string, unknown>, body: unknown) => registry.record(op(id), { request: { path, query: {}, headers: {}, body: {} }, response: { body, headers: {} } })!;
    const instance = made('createComputeInstance', {}, { id: 1 });
    const instanceConfig = made('createComputeConfig', { computeId: 1 }, { id: 6 });
    const balancer = made('createBalancer', {}, { id: 1 });
    const balancerConfig = made('createBalancerConfig', { balancerId: 1 }, { id: 6 });
    registry.removed(balancerConfig);
    expect([instance, instanceConfig, balancer].map((r) => r.alive)).toEqual([true, true, true]);
    registry.removed(instance);
    expect([instance.alive, instanceConfig.alive, balancer.alive]).toEqual([false, false, true]);
  });

  it('name the kind a body field refers to', () => {
    expect(referenceParameter('compute_id', false)).toBe('computeId');
    expect(referenceParameter('volumes', true)).toBe('volumeId');
    expect(referenceParameter('label', false)).toBeUndefined();
  });
});

describe('secrets and scopes', () => {
  it('secrets are the write-only names of the bundle', () => {
    expect([...secretNamesOf(document)]).toEqual(expect.arrayContaining(['root_pass', 'private_key', 'ssl_key']));
  });

  it('the generated tokens file allows every probe of every secured operation', () => {
    for (const o of allOperations.filter((x) => x.security !== 'public')) expect(probesFor(o, tokens).missing, o.id).toEqual([]);
    expect(probesFor(op('attachVolume'), tokens).probes.map((p) => p.name)).toEqual([
      '403 for a read-only token (volumes:read_only) on a write', '403 for a token without volumes scopes',
      '403 for a read-only token (computes:read_only) on a write', '403 for a token without computes scopes',
    ]);
    expect(probesFor(op('createTag'), tokens).probes.map((p) => p.name)).toContain('403 for a restricted user changing tags');
    expect(probesFor(op('listVolumes'), tokens).probes.map((p) => p.name)).toEqual(['403 for a token without volumes scopes', 'success for a token with just the scopes it needs']);
  });

  it('a tokens file without the right tokens leaves those probes out, and says which', () => {
    const onlyFull = tokens.slice(0, 1);
    const { probes, missing } = probesFor(op('createVolume'), onlyFull);
    expect(probes).toEqual([]);
    expect(missing).toEqual(expect.arrayContaining(['a token with volumes:read_only but not volumes:read_write', 'a token without any volumes scope']));
  });
});

describe('the bundle\'s model', () => {
  it('is made once per content: a document read again shares it, an edited one gets its own', () => {
    const first = loadDocument();
    const again = loadDocument();
    expect(again).not.toBe(first);
    expect(bundleModel(again)).toBe(bundleModel(first));
    const edited = loadDocument();
    delete edited.paths['/regions'];
    expect(bundleModel(edited)).not.toBe(bundleModel(first));
    expect(bundleModel(edited).ops.some((o) => o.path === '/regions')).toBe(false);
    expect(bundleModel(first).ops.some((o) => o.path === '/regions')).toBe(true);
  });

  it('is not shared once the document it was made from has been edited', () => {
    // A content of this test's own, so that no other test's document is the one edited here.
    const own = () => ({ ...loadDocument(), info: { title: 'the edited-document test', version: '1' } });
    const model = bundleModel(own());
    delete model.document.paths['/regions']; // edited after its first run
    const fresh = own();
    expect(bundleModel(fresh)).not.toBe(model);
    expect(bundleModel(fresh).ops.some((o) => o.path === '/regions')).toBe(true);
  });
});
