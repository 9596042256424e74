// Compute: one test per rule of the requirements (rules 1 to 10 of the Compute section, the
// states this server moves on the clock, and the rules that join Compute to Volumes, Images and
// Tags), named after the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testClock, TOKENS, withTransitions } from '../harness/harness.js';
import type { Api, TestServer } from '../harness/harness.js';

/** Restricted, may add instances: holds only what it creates. */
const computeAdder = { token: 'test-compute-adder', scopes: '*', grants: ['add_computes'], restricted: true };
/** Image capture scopes: images:read_write alone, and with computes:read_only. */
const imagesOnly = { token: 'test-images-only', scopes: 'images:read_write', grants: 'all', restricted: false };
const capturer = { token: 'test-capturer', scopes: 'images:read_write computes:read_only', grants: 'all', restricted: false };

let t: TestServer;
let full: Api;
const clock = testClock(0);
const PASSWORD = 'correct-Horse-battery-staple-42';

beforeAll(async () => {
  t = await startTestServer({ name: 'compute', clock, tokens: [...Object.values(TOKENS), computeAdder, imagesOnly, capturer] });
  full = t.as('full');
});
afterAll(() => t?.close());

async function ok<T = any>(answer: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const a = await answer;
  expect(a.status, a.text).toBe(200);
  return a.body;
}

async function refused(answer: Promise<{ status: number; body: any; text: string }>, status = 400) {
  const a = await answer;
  expect(a.status, a.text).toBe(status);
  return a.body.errors as { field?: string; reason: string }[];
}

const deploy = (body: object = {}, api = full) => ok(api.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/debian11', root_pass: PASSWORD, ...body }));
const empty = (body: object = {}) => ok(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', ...body }));
const configsOf = async (id: number) => (await ok(full.get(`/compute/instances/${id}/configs`))).data as any[];
const diskIds = (config: any) => Object.values(config.devices).filter((d: any) => d?.disk_id).map((d: any) => d.disk_id as number);
const statusOf = async (id: number) => (await ok(full.get(`/compute/instances/${id}`))).status;
/** The size of a disk in MB, read by capturing an image of it (disks have no operation of their own). */
const diskSize = async (diskId: number) => (await ok(full.post('/images', { disk_id: diskId }))).size as number;
const boot = (id: number, body: object = {}) => ok(full.post(`/compute/instances/${id}/boot`, body));
/** An offline instance whose only profile has nothing in its root device (`/dev/sda`): its boots fail. */
const unbootable = async (body: object = {}) => {
  const instance = await empty(body);
  await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'no-root', devices: {} }));
  return instance;
};
/** Moves the clock to `ms` from now: the instance is still `state` 30 s before, and offline then. */
async function offlineAfter(id: number, ms: number, state = 'booting') {
  clock.advance(ms - 30_000);
  expect(await statusOf(id)).toBe(state);
  clock.advance(30_000);
  expect(await statusOf(id)).toBe('offline');
}
const volumeIn = (region = 'us-east', label = 'vol') => ok(full.post('/volumes', { label, region }));
const attach = (volumeId: number, body: object) => full.post(`/volumes/${volumeId}/attach`, body);
const attachedTo = async (volumeId: number) => (await ok(full.get(`/volumes/${volumeId}`))).compute_id as number | null;
const volumesInConfigs = async (id: number) => (await configsOf(id)).flatMap((c) => Object.values(c.devices).map((d: any) => d?.volume_id).filter((v) => v != null));


describe('compute instances', () => {
  it('creating an instance needs the add_computes grant', async () => {
    const errors = await refused(t.as('noGrants').post('/compute/instances', { region: 'us-east', type: 'g6-standard-2' }), 403);
    expect(errors[0]!.reason).toMatch(/add_computes/);
    await empty();
  });

  it('an image deploy creates a default config with two disks, one a swap disk of swap_size, and ends running', async () => {
    const instance = await deploy({ swap_size: 256 });
    expect(instance).toMatchObject({ status: 'running', image: 'compute/debian11', specs: { disk: 81920, memory: 4096, vcpus: 2 } });
    const [config, ...others] = await configsOf(instance.id);
    expect(others).toEqual([]);
    expect(config.devices).toMatchObject({ sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });
    const [system, swap] = [config.devices.sda.disk_id, config.devices.sdb.disk_id];
    expect(config.devices.sda.volume_id).toBeNull();
    expect(await diskSize(swap)).toBe(256);
    expect(await diskSize(system)).toBe(81920 - 256);
  });

  it('an image deploy with booted false ends offline', async () => {
    expect((await deploy({ booted: false })).status).toBe('offline');
  });

  it('an image plus script deploy is an image deploy with the script; a script takes no private image', async () => {
    const instance = await deploy({ script_id: 10079, script_data: { site_title: 'blog' } });
    expect(instance.status).toBe('running');
    expect(await configsOf(instance.id)).toHaveLength(1);
    const errors = await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'private/1', root_pass: PASSWORD, script_id: 1 }));
    expect(errors.map((e) => e.field)).toContain('image');
  });

  it('a root password that fails the strength check: Password does not meet strength requirement', async () => {
    for (const weak of ['aaaaaaaa', 'password', 'abcdefg1', 'aaaaaaaaaA1!']) {
      const errors = await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/debian11', root_pass: weak }));
      expect(errors, weak).toEqual([{ field: 'root_pass', reason: 'Password does not meet strength requirement' }]);
    }
    await deploy({ root_pass: 'Tr0ub4dor&3' });
  });

  it('an image deploy needs root_pass, an image that exists and a type whose disk holds it', async () => {
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/debian11' }))).map((e) => e.field)).toContain('root_pass');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/nothing', root_pass: PASSWORD })))[0]!.field).toBe('image');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-huge', image: 'compute/debian11', root_pass: PASSWORD })))[0]!.field).toBe('type');
    expect((await refused(full.post('/compute/instances', { region: 'mars-1', type: 'g6-standard-2' })))[0]!.field).toBe('region');
  });

  it('an empty instance stays offline, with no disks or configs', async () => {
    const instance = await empty({ booted: true });
    expect(instance).toMatchObject({ status: 'offline', image: null, label: `compute-${instance.id}` });
    expect(await configsOf(instance.id)).toEqual([]);
  });

  it('status moves on the clock: provisioning → running, or offline when not booted', async () => {
    const [booted, notBooted] = await withTransitions(clock, 60_000, async () => [await deploy(), await deploy({ booted: false })]);
    expect([booted.status, notBooted.status]).toEqual(['provisioning', 'provisioning']);
    clock.advance(60_000);
    expect([await statusOf(booted.id), await statusOf(notBooted.id)]).toEqual(['running', 'offline']);
  });

  it('a backup deploy needs read_write on the source instance, a successful backup in the same region and a type large enough; disks and configs follow the source', async () => {
    const source = await deploy({ type: 'g6-standard-1' });
    const backup = await ok(full.post(`/compute/instances/${source.id}/backups`, { label: 'golden' }));
    const restricted = t.as({ token: computeAdder.token });
    const notMine = await refused(restricted.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', backup_id: backup.id }), 403);
    expect(notMine[0]!.reason).toMatch(/compute/);
    expect((await refused(full.post('/compute/instances', { region: 'us-west', type: 'g6-standard-2', backup_id: backup.id })))[0]!.field).toBe('region');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-nanode-1', backup_id: backup.id })))[0]!.field).toBe('type');
    const restored = await ok(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', backup_id: backup.id }));
    expect(restored.status).toBe('running');
    const [config] = await configsOf(restored.id);
    const [sourceConfig] = await configsOf(source.id);
    expect(config.label).toBe(sourceConfig.label);
    expect(diskIds(config)).toHaveLength(2);
    expect(diskIds(config)).not.toEqual(diskIds(sourceConfig));
    const pending = await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${source.id}/backups`, { label: 'later' })));
    expect(pending.status).toBe('running');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', backup_id: pending.id })))[0]!.field).toBe('backup_id');
    clock.advance(60_000);
  });

  it('delete is irreversible and deletes disks, backups and configs; attached volumes are detached', async () => {
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    const backup = await ok(full.post(`/compute/instances/${instance.id}/backups`, { label: 'last' }));
    const volume = await ok(full.post('/volumes', { label: 'kept', compute_id: instance.id }));
    expect(volume).toMatchObject({ compute_id: instance.id, compute_label: instance.label });
    await ok(full.delete(`/compute/instances/${instance.id}`));
    await refused(full.get(`/compute/instances/${instance.id}`), 404);
    await refused(full.get(`/compute/instances/${instance.id}/configs/${config.id}`), 404);
    expect((await refused(full.post('/images', { disk_id: diskIds(config)[0] })))[0]!.field).toBe('disk_id');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', backup_id: backup.id })))[0]!.field).toBe('backup_id');
    expect(await ok(full.get(`/volumes/${volume.id}`))).toMatchObject({ compute_id: null, compute_label: null });
  });

  it('update changes label, group, alerts, the backup schedule and the watchdog', async () => {
    const instance = await deploy();
    const updated = await ok(full.put(`/compute/instances/${instance.id}`, { label: 'renamed-1', group: 'web', alerts: { cpu: 150 }, backups: { schedule: { day: 'Monday', window: 'W4' } }, watchdog_enabled: false }));
    expect(updated).toMatchObject({ label: 'renamed-1', group: 'web', alerts: { cpu: 150, io: 10000 }, backups: { enabled: false, schedule: { day: 'Monday', window: 'W4' } }, watchdog_enabled: false });
    expect(await ok(full.get(`/compute/instances/${instance.id}`))).toEqual(updated);
  });

  it('tags on instances need an unrestricted user', async () => {
    const restricted = t.as({ token: computeAdder.token });
    const errors = await refused(restricted.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', tags: ['mine'] }), 403);
    expect(errors[0]!.reason).toMatch(/unrestricted/);
    const instance = await ok(restricted.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2' }));
    await refused(restricted.put(`/compute/instances/${instance.id}`, { tags: ['mine'] }), 403);
    expect((await ok(full.put(`/compute/instances/${instance.id}`, { tags: ['mine'] }))).tags).toEqual(['mine']);
    const tagged = await ok(full.get('/tags/mine'));
    expect(tagged.data).toEqual([{ type: 'compute', data: expect.objectContaining({ id: instance.id, tags: ['mine'] }) }]);
  });

  it('a tag create naming instances needs read_write on every one, or nothing is tagged', async () => {
    const mine = await ok(t.as({ token: computeAdder.token }).post('/compute/instances', { region: 'us-east', type: 'g6-standard-2' }));
    const theirs = await empty();
    // `noGrants` is unrestricted but holds no permission on instances: refused, nothing is created.
    const errors = await refused(t.as('noGrants').post('/tags', { label: 'ops', computes: [mine.id] }), 403);
    expect(errors[0]!.reason).toMatch(/read_write permission on compute/);
    await refused(full.get('/tags/ops'), 404);
    await ok(full.post('/tags', { label: 'ops-all', computes: [mine.id, theirs.id] }));
    expect((await ok(full.get(`/compute/instances/${theirs.id}`))).tags).toEqual(['ops-all']);
    expect((await refused(full.post('/tags', { label: 'ops-missing', computes: [theirs.id, 999999] })))[0]!.field).toBe('computes.1');
    await refused(full.get('/tags/ops-missing'), 404);
  });

  it('a deploy with a VLAN interface; interfaces per instance: at most three, at most one public, VLAN labels and addresses unique', async () => {
    const vlan = (label: string, ipam_address: string | null = null) => ({ purpose: 'vlan', label, ipam_address });
    const pub = { purpose: 'public' };
    expect((await refused(full.post('/compute/instances', { region: 'us-west', type: 'g6-standard-2', image: 'compute/debian11', root_pass: PASSWORD, interfaces: [vlan('a')] })))[0]!.field).toBe('interfaces.0.purpose');
    await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', interfaces: [pub, vlan('a'), vlan('b'), vlan('c')] }));
    await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', interfaces: [pub, pub] }));
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', interfaces: [pub, vlan('a'), vlan('a')] })))[0]!.field).toBe('interfaces.2.label');
    expect((await refused(full.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', interfaces: [vlan('a', '10.0.0.1/24'), vlan('b', '10.0.0.1/24')] })))[0]!.field).toBe('interfaces.1.ipam_address');
    const instance = await deploy({ interfaces: [pub, vlan('backend', '10.0.0.1/24')] });
    const [config] = await configsOf(instance.id);
    expect(config.interfaces).toEqual([
      { id: expect.any(Number), purpose: 'public', label: null, ipam_address: null },
      { id: expect.any(Number), purpose: 'vlan', label: 'backend', ipam_address: '10.0.0.1/24' },
    ]);
  });

  it('a region has at most ten VLANs', async () => {
    const instance = await deploy({ region: 'ca-central' });
    const vlans = (n: number) => [{ purpose: 'vlan', label: `net-${n}` }];
    for (let n = 0; n < 10; n++) await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: `c${n}`, devices: {}, interfaces: vlans(n) }));
    expect((await refused(full.post(`/compute/instances/${instance.id}/configs`, { label: 'c10', devices: {}, interfaces: [{ purpose: 'public' }, ...vlans(10)] })))[0]!.field).toBe('interfaces.1.label');
    expect((await refused(full.post('/compute/instances', { region: 'ca-central', type: 'g6-standard-2', image: 'compute/debian11', root_pass: PASSWORD, interfaces: vlans(11) })))[0]!.field).toBe('interfaces.0.label');
    await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'reuse', devices: {}, interfaces: vlans(3) }));
    await deploy({ region: 'us-east', interfaces: vlans(10) });
    const source = await deploy({ interfaces: vlans(12) });
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { region: 'ca-central', type: 'g6-standard-2' })))[0]!.field).toBe('region');
  });
});

describe('backups', () => {
  it('a snapshot create deletes the existing snapshot', async () => {
    const instance = await deploy();
    const first = await ok(full.post(`/compute/instances/${instance.id}/backups`, { label: 'one' }));
    const second = await ok(full.post(`/compute/instances/${instance.id}/backups`, { label: 'two' }));
    const backups = await ok(full.get(`/compute/instances/${instance.id}/backups`));
    expect(backups).toEqual({ automatic: [], snapshot: { in_progress: null, current: expect.objectContaining({ id: second.id, label: 'two', status: 'successful', type: 'snapshot' }) } });
    await refused(full.get(`/compute/instances/${instance.id}/backups/${first.id}`), 404);
    expect(backups.snapshot.current.disks).toEqual([
      { label: 'Debian 11 Disk', size: 81920 - 512, filesystem: 'ext4' },
      { label: '512 MB Swap Image', size: 512, filesystem: 'swap' },
    ]);
  });

  it('a snapshot in progress shows as in_progress until it succeeds', async () => {
    const instance = await deploy();
    const snapshot = await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${instance.id}/backups`, { label: 'slow' })));
    expect(snapshot).toMatchObject({ status: 'running', finished: null });
    expect((await ok(full.get(`/compute/instances/${instance.id}/backups`))).snapshot).toMatchObject({ in_progress: { id: snapshot.id }, current: null });
    await refused(full.post(`/compute/instances/${instance.id}/backups`, { label: 'another' }));
    clock.advance(60_000);
    expect(await ok(full.get(`/compute/instances/${instance.id}/backups/${snapshot.id}`))).toMatchObject({ status: 'successful', finished: expect.any(String) });
  });

  it('backup cancel deletes all backups permanently', async () => {
    const instance = await deploy();
    await ok(full.post(`/compute/instances/${instance.id}/backups/enable`));
    expect((await ok(full.get(`/compute/instances/${instance.id}`))).backups.enabled).toBe(true);
    const snapshot = await ok(full.post(`/compute/instances/${instance.id}/backups`, { label: 'gone' }));
    await ok(full.post(`/compute/instances/${instance.id}/backups/cancel`));
    expect(await ok(full.get(`/compute/instances/${instance.id}/backups`))).toEqual({ automatic: [], snapshot: { in_progress: null, current: null } });
    await refused(full.get(`/compute/instances/${instance.id}/backups/${snapshot.id}`), 404);
    expect((await ok(full.get(`/compute/instances/${instance.id}`))).backups.enabled).toBe(false);
  });

  it('restore with overwrite true deletes all disks and configs on the target first', async () => {
    const source = await deploy({ type: 'g6-standard-1' });
    const backup = await ok(full.post(`/compute/instances/${source.id}/backups`, { label: 'b' }));
    const target = await deploy();
    const [old] = await configsOf(target.id);
    await ok(full.post(`/compute/instances/${source.id}/backups/${backup.id}/restore`, { compute_id: target.id, overwrite: true }));
    const configs = await configsOf(target.id);
    expect(configs).toHaveLength(1);
    expect(configs[0].id).not.toBe(old.id);
    expect(await statusOf(target.id)).toBe('offline');
    expect((await refused(full.post('/images', { disk_id: diskIds(old)[0] })))[0]!.field).toBe('disk_id');
  });

  it('restore with overwrite false and insufficient space returns an insufficient-space error', async () => {
    const source = await deploy({ type: 'g6-standard-1' });
    const backup = await ok(full.post(`/compute/instances/${source.id}/backups`, { label: 'b' }));
    const full2 = await deploy();
    const errors = await refused(full.post(`/compute/instances/${source.id}/backups/${backup.id}/restore`, { compute_id: full2.id }));
    expect(errors[0]).toMatchObject({ field: 'overwrite', reason: expect.stringMatching(/Insufficient space/) });
    const roomy = await empty({ type: 'g6-standard-4' });
    await ok(full.post(`/compute/instances/${source.id}/backups/${backup.id}/restore`, { compute_id: roomy.id, overwrite: false }));
    expect(await configsOf(roomy.id)).toHaveLength(1);
    const elsewhere = await empty({ region: 'us-west' });
    expect((await refused(full.post(`/compute/instances/${source.id}/backups/${backup.id}/restore`, { compute_id: elsewhere.id, overwrite: true })))[0]!.field).toBe('compute_id');
  });
});

describe('actions', () => {
  it('boot with no config_id uses the only config, else the last booted; several and none last booted is an error', async () => {
    const instance = await empty();
    const none = await refused(full.post(`/compute/instances/${instance.id}/boot`, {}));
    expect(none[0]!.field).toBe('config_id');
    const a = await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'a', devices: {} }));
    await ok(full.post(`/compute/instances/${instance.id}/boot`));
    const b = await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'b', devices: {} }));
    await ok(full.post(`/compute/instances/${instance.id}/boot`)); // a, the last booted
    const volume = await ok(full.post('/volumes', { label: 'follows', compute_id: instance.id }));
    expect((await ok(full.get(`/compute/instances/${instance.id}/configs/${a.id}`))).devices.sda).toEqual({ disk_id: null, volume_id: volume.id });
    await ok(full.delete(`/compute/instances/${instance.id}/configs/${a.id}`));
    await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'c', devices: {} }));
    const errors = await refused(full.post(`/compute/instances/${instance.id}/boot`, {}));
    expect(errors[0]).toMatchObject({ field: 'config_id', reason: expect.stringMatching(/several configs and none was last booted/) });
    await ok(full.post(`/compute/instances/${instance.id}/boot`, { config_id: b.id }));
  });

  it('boot moves offline → booting → running, and a running instance reboots', async () => {
    const instance = await deploy({ booted: false });
    await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${instance.id}/boot`)));
    expect(await statusOf(instance.id)).toBe('booting');
    await refused(full.post(`/compute/instances/${instance.id}/boot`));
    clock.advance(60_000);
    expect(await statusOf(instance.id)).toBe('running');
    await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${instance.id}/boot`)));
    expect(await statusOf(instance.id)).toBe('rebooting');
    clock.advance(60_000);
    expect(await statusOf(instance.id)).toBe('running');
  });

  it('shutdown requires no running or queued actions: running → shutting_down → offline', async () => {
    const busy = await withTransitions(clock, 60_000, () => deploy());
    expect((await refused(full.post(`/compute/instances/${busy.id}/shutdown`)))[0]!.reason).toMatch(/running or queued action/);
    clock.advance(60_000);
    await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${busy.id}/shutdown`)));
    expect(await statusOf(busy.id)).toBe('shutting_down');
    clock.advance(60_000);
    expect(await statusOf(busy.id)).toBe('offline');
  });

  it('resize requires no running or queued actions, and disks that fit the new type', async () => {
    const instance = await deploy({ type: 'g6-standard-1' });
    const [config] = await configsOf(instance.id);
    expect((await refused(full.post(`/compute/instances/${instance.id}/resize`, { type: 'g6-nanode-1' })))[0]).toMatchObject({ field: 'type', reason: expect.stringMatching(/allows/) });
    expect((await refused(full.post(`/compute/instances/${instance.id}/resize`, { type: 'g6-unknown' })))[0]!.field).toBe('type');
    await withTransitions(clock, 60_000, () => ok(full.post(`/compute/instances/${instance.id}/resize`, { type: 'g6-standard-2' })));
    expect(await ok(full.get(`/compute/instances/${instance.id}`))).toMatchObject({ status: 'migrating', type: 'g6-standard-2', specs: { disk: 81920 } });
    expect((await refused(full.post(`/compute/instances/${instance.id}/resize`, { type: 'g6-standard-4' })))[0]!.reason).toMatch(/pending migration/);
    clock.advance(60_000);
    expect(await statusOf(instance.id)).toBe('running');
    // allow_auto_disk_resize (default true) grew the system disk into the new space.
    expect(await diskSize(diskIds(config)[0]!)).toBe(81920 - 512);
    await ok(full.post(`/compute/instances/${instance.id}/resize`, { type: 'g6-standard-4', allow_auto_disk_resize: false }));
    expect(await diskSize(diskIds(config)[0]!)).toBe(81920 - 512);
  });

  it('rescue: slot sdh is reserved, and sde..sdh are unavailable when virt_mode is fullvirt', async () => {
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    const disk = diskIds(config)[0];
    expect((await refused(full.post(`/compute/instances/${instance.id}/rescue`, { devices: { sdh: { disk_id: disk } } }))).map((e) => e.field)).toContain('devices');
    await ok(full.post(`/compute/instances/${instance.id}/rescue`, { devices: { sda: { disk_id: disk }, sde: { disk_id: disk } } }));
    await ok(full.put(`/compute/instances/${instance.id}/configs/${config.id}`, { virt_mode: 'fullvirt' }));
    expect((await refused(full.post(`/compute/instances/${instance.id}/rescue`, { devices: { sde: { disk_id: disk } } })))[0]!.field).toBe('devices.sde');
    expect((await refused(full.post(`/compute/instances/${instance.id}/rescue`, { devices: { sda: { disk_id: 1 } } })))[0]!.field).toBe('devices.sda.disk_id');
  });

  it('stats for a year/month must be in the past or the current month; the current month gives the past 30 days', async () => {
    const instance = await deploy();
    const now = new Date(clock.now());
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const day = await ok(full.get(`/compute/instances/${instance.id}/stats`));
    expect(day.data.cpu).toHaveLength(25);
    const current = await ok(full.get(`/compute/instances/${instance.id}/stats/${year}/${month}`));
    expect(current.data.cpu).toHaveLength(31);
    expect(current.data.cpu[30][0] - current.data.cpu[0][0]).toBe(30 * 86_400_000);
    const past = await ok(full.get(`/compute/instances/${instance.id}/stats/2020/2`));
    expect(past.data.netv4.in).toHaveLength(29);
    expect(past.data.netv4.in.every(([, v]: number[]) => v === 0)).toBe(true); // before the instance existed
    expect((await refused(full.get(`/compute/instances/${instance.id}/stats/${year + 1}/1`)))[0]!.field).toBe('year');
    if (month < 12) expect((await refused(full.get(`/compute/instances/${instance.id}/stats/${year}/${month + 1}`)))[0]!.field).toBe('month');
    expect(await ok(full.get(`/compute/instances/${instance.id}/transfer`))).toEqual({ used: 0, quota: 4000, billable: 0 });
    expect(await ok(full.get(`/compute/instances/${instance.id}/transfer/2020/2`))).toEqual({ bytes_in: 0, bytes_out: 0, bytes_total: 0 });
    expect((await refused(full.get(`/compute/instances/${instance.id}/transfer/${year + 1}/1`)))[0]!.field).toBe('year');
  });
});

describe('watchdog', () => {
  it('a boot fails when the profile\'s root device holds nothing: the instance powers off', async () => {
    const instance = await unbootable();
    await ok(full.put(`/compute/instances/${instance.id}`, { watchdog_enabled: false }));
    await withTransitions(clock, 60_000, () => boot(instance.id));
    await offlineAfter(instance.id, 60_000);
  });

  it('watchdog: reboots an instance that powers off unexpectedly, and gives up after more than 5 boot jobs within 15 minutes', async () => {
    const instance = await unbootable();
    const failingBoot = () => withTransitions(clock, 60_000, () => boot(instance.id));
    // The boot and five by the watchdog, each failing after a minute: six boot jobs, then offline.
    await failingBoot();
    await offlineAfter(instance.id, 6 * 60_000);
    // A boot at 7 minutes: six jobs already within 15 minutes, so the watchdog does not retry.
    clock.advance(60_000);
    await failingBoot();
    await offlineAfter(instance.id, 60_000);
    // Once those jobs are more than 15 minutes old, it retries five times again.
    clock.advance(15 * 60_000);
    await failingBoot();
    await offlineAfter(instance.id, 6 * 60_000);
  });

  it('the watchdog counts every boot job: after a boot and four reboots within 15 minutes, a failing boot is not retried', async () => {
    const instance = await deploy({ booted: false });
    for (let i = 0; i < 5; i++) await boot(instance.id);
    const [config] = await configsOf(instance.id);
    await ok(full.put(`/compute/instances/${instance.id}/configs/${config.id}`, { root_device: '/dev/sdc' }));
    await withTransitions(clock, 60_000, () => boot(instance.id));
    await offlineAfter(instance.id, 60_000, 'rebooting');
  });

  it('a failing boot job lasts at most a minute, so the watchdog gives up even when states last longer', async () => {
    const instance = await unbootable();
    await withTransitions(clock, 10 * 60_000, () => boot(instance.id));
    await offlineAfter(instance.id, 6 * 60_000);
  });

  it('turning the watchdog off while boots fail stops its retries; turning it on starts them', async () => {
    const stopped = await unbootable();
    await withTransitions(clock, 60_000, () => boot(stopped.id));
    const started = await unbootable();
    await ok(full.put(`/compute/instances/${started.id}`, { watchdog_enabled: false }));
    await withTransitions(clock, 60_000, () => boot(started.id));
    clock.advance(20_000);
    await ok(full.put(`/compute/instances/${stopped.id}`, { watchdog_enabled: false }));
    await ok(full.put(`/compute/instances/${started.id}`, { watchdog_enabled: true }));
    // Both are 20 s into their first job: the one stops at its end, the other retries five times.
    await offlineAfter(stopped.id, 40_000);
    await offlineAfter(started.id, 5 * 60_000);
  });

  it('a rescue boot needs no root device of the profile: it ends running', async () => {
    const instance = await unbootable();
    await ok(full.post(`/compute/instances/${instance.id}/rescue`, { devices: {} }));
    expect(await statusOf(instance.id)).toBe('running');
  });
});

describe('clone', () => {
  it('clone: configs absent clones every config and its disks, an empty array none, a list those; disks adds disks', async () => {
    const source = await deploy();
    const [main] = await configsOf(source.id);
    const spare = await ok(full.post(`/compute/instances/${source.id}/configs`, { label: 'spare', devices: { sda: { disk_id: diskIds(main)[1] } } }));
    const everything = await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2' }));
    expect(everything).toMatchObject({ label: 'compute', status: 'offline' });
    expect((await configsOf(everything.id)).map((c) => c.label)).toEqual([main.label, 'spare']);
    const nothing = await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2', configs: [], label: 'nothing' }));
    expect(await configsOf(nothing.id)).toEqual([]);
    const some = await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-nanode-1', configs: [spare.id], disks: [] }));
    const [only] = await configsOf(some.id);
    expect(only.label).toBe('spare');
    expect(diskIds(only)).toHaveLength(1);
    expect(await diskSize(diskIds(only)[0]!)).toBe(512);
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2', configs: [main.id, 1] })))[0]!.field).toBe('configs.1');
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })))[0]!.field).toBe('type');
  });

  it('a clone copies the source\'s tags and needs add_computes', async () => {
    const source = await deploy({ tags: ['cloned-tag'] });
    await refused(t.as('noGrants').post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2' }), 403);
    const copy = await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2', group: 'copies' }));
    expect(copy).toMatchObject({ tags: ['cloned-tag'], group: 'copies' });
  });

  it('a clone onto an existing instance needs enough resources and no running or queued actions', async () => {
    const source = await deploy({ type: 'g6-standard-1' });
    const crowded = await deploy();
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { compute_id: crowded.id })))[0]).toMatchObject({ field: 'compute_id', reason: expect.stringMatching(/disk space/) });
    // Its profile has no root disk, so the boot fails after its minute; without the watchdog
    // nothing boots it again.
    const busy = await withTransitions(clock, 60_000, () => empty({ type: 'g6-standard-4' }).then(async (i) => {
      await ok(full.put(`/compute/instances/${i.id}`, { watchdog_enabled: false }));
      await ok(full.post(`/compute/instances/${i.id}/configs`, { label: 'x', devices: {} }));
      await ok(full.post(`/compute/instances/${i.id}/boot`));
      return i;
    }));
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { compute_id: busy.id })))[0]).toMatchObject({ field: 'compute_id', reason: expect.stringMatching(/running or queued action/) });
    clock.advance(60_000);
    const target = await ok(full.post(`/compute/instances/${source.id}/clone`, { compute_id: busy.id }));
    expect(target.id).toBe(busy.id);
    expect(await configsOf(busy.id)).toHaveLength(2);
    await refused(full.post(`/compute/instances/${source.id}/clone`, { compute_id: busy.id, region: 'us-east' }));
  });

  it('cloning an instance with a VLAN to a region without VLANs does not start', async () => {
    const source = await deploy({ interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'private-net' }] });
    expect((await refused(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-west', type: 'g6-standard-2' })))[0]!.field).toBe('region');
    expect((await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-standard-2' }))).region).toBe('us-east');
    expect((await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-west', type: 'g6-standard-2', configs: [] }))).region).toBe('us-west');
  });

  it('at most five concurrent clones from one source: the sixth is a 400', async () => {
    const source = await deploy({ type: 'g6-nanode-1' });
    const answers = await withTransitions(clock, 60_000, () => Promise.all(Array.from({ length: 7 }, () => full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' }))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 400, 400]);
    expect(answers.find((a) => a.status === 400)!.body.errors[0].reason).toMatch(/at most 5/);
    clock.advance(60_000);
    await ok(full.post(`/compute/instances/${source.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' }));
  });
});

describe('configs', () => {
  it('config devices show every slot sda..sdh, null when empty; a disk must be the instance\'s', async () => {
    const instance = await deploy();
    const other = await deploy();
    const [mine] = await configsOf(instance.id);
    const [theirs] = await configsOf(other.id);
    const created = await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'p', devices: { sdc: { disk_id: diskIds(mine)[0] } }, kernel: 'compute/latest-64bit', root_device: 'nonsense' }));
    expect(created.devices).toEqual({ sda: null, sdb: null, sdc: { disk_id: diskIds(mine)[0], volume_id: null }, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });
    expect(created).toMatchObject({ root_device: '/dev/sda', memory_limit: 4096, run_level: 'default', virt_mode: 'paravirt', helpers: { devtmpfs_automount: false } });
    expect(await ok(full.get(`/compute/instances/${instance.id}/configs/${created.id}`))).toEqual(created);
    expect((await refused(full.post(`/compute/instances/${instance.id}/configs`, { label: 'q', devices: { sda: { disk_id: diskIds(theirs)[0] } } })))[0]!.field).toBe('devices.sda.disk_id');
    expect((await refused(full.post(`/compute/instances/${instance.id}/configs`, { label: 'q', devices: {}, kernel: 'compute/none' })))[0]!.field).toBe('kernel');
    await refused(full.get(`/compute/instances/${other.id}/configs/${created.id}`), 404);
  });

  it('devices sde..sdh are unavailable when virt_mode is fullvirt', async () => {
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    await refused(full.post(`/compute/instances/${instance.id}/configs`, { label: 'fv', virt_mode: 'fullvirt', devices: { sde: { disk_id: diskIds(config)[0] } } }));
    const paravirt = await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'pv', devices: { sdf: { disk_id: diskIds(config)[0] } } }));
    expect((await refused(full.put(`/compute/instances/${instance.id}/configs/${paravirt.id}`, { virt_mode: 'fullvirt' })))[0]!.field).toBe('virt_mode');
  });
});

describe('volumes and images of instances', () => {
  it('volume create with compute_id goes to the only config, else the last booted; none selectable is an error', async () => {
    const bare = await empty();
    expect((await refused(full.post('/volumes', { label: 'v', compute_id: bare.id })))[0]!.field).toBe('compute_id');
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    const volume = await ok(full.post('/volumes', { label: 'v', compute_id: instance.id }));
    expect(volume).toMatchObject({ region: 'us-east', compute_id: instance.id });
    expect((await ok(full.get(`/compute/instances/${instance.id}/configs/${config.id}`))).devices.sdc).toEqual({ disk_id: null, volume_id: volume.id });
    expect((await ok(full.get(`/compute/instances/${instance.id}/volumes`))).data.map((v: any) => v.id)).toEqual([volume.id]);
    expect((await refused(full.post('/volumes', { label: 'v', compute_id: instance.id, config_id: 1 })))[0]!.field).toBe('config_id');
  });

  it('attach: the volume and the instance must be in the same region, and the user needs read_write on the instance', async () => {
    const instance = await deploy();
    const west = await ok(full.post('/volumes', { label: 'west', region: 'us-west' }));
    expect((await refused(full.post(`/volumes/${west.id}/attach`, { compute_id: instance.id })))[0]!.field).toBe('compute_id');
    const east = await ok(t.as('volumeKeeper').post('/volumes', { label: 'east', region: 'us-east' }));
    const errors = await refused(t.as('volumeKeeper').post(`/volumes/${east.id}/attach`, { compute_id: instance.id }), 403);
    expect(errors[0]!.reason).toMatch(/compute/);
    expect((await ok(full.post(`/volumes/${east.id}/attach`, { compute_id: instance.id }))).compute_id).toBe(instance.id);
    await ok(full.post(`/volumes/${east.id}/detach`));
  });

  it('an instance config holds at most eight persistent volumes', async () => {
    const instance = await deploy();
    for (let i = 0; i < 6; i++) await ok(full.post('/volumes', { label: `p${i}`, compute_id: instance.id }));
    // Two disks and six volumes fill sda..sdh; volumes beyond eight are refused.
    await ok(full.post('/volumes', { label: 'p6', compute_id: instance.id }));
    await ok(full.post('/volumes', { label: 'p7', compute_id: instance.id }));
    const errors = await refused(full.post('/volumes', { label: 'p8', compute_id: instance.id }));
    expect(errors[0]!.reason).toMatch(/8 volumes/);
  });

  it('persistent volumes per instance: at most eight, across its configs; volumes without persistence do not count', async () => {
    const instance = await deploy({ type: 'g6-standard-1' });
    const [main] = await configsOf(instance.id);
    const second = await ok(full.post(`/compute/instances/${instance.id}/configs`, { label: 'second', devices: {} }));
    for (let i = 0; i < 5; i++) await ok(full.post('/volumes', { label: `m${i}`, compute_id: instance.id, config_id: main.id }));
    for (let i = 0; i < 3; i++) await ok(full.post('/volumes', { label: `s${i}`, compute_id: instance.id, config_id: second.id }));
    expect((await refused(full.post('/volumes', { label: 'ninth', compute_id: instance.id, config_id: second.id })))[0]).toMatchObject({ field: 'config_id', reason: expect.stringMatching(/8 volumes/) });
    const spare = await volumeIn();
    expect((await refused(attach(spare.id, { compute_id: instance.id, config_id: second.id })))[0]!.reason).toMatch(/8 volumes/);
    // A profile's devices cannot add a ninth either; nothing is changed.
    expect((await refused(full.put(`/compute/instances/${instance.id}/configs/${second.id}`, { devices: { sda: { volume_id: spare.id } } })))[0]!.field).toBe('devices');
    expect(await attachedTo(spare.id)).toBeNull();
    await ok(attach(spare.id, { compute_id: instance.id, persist_across_boots: false }));
    expect((await ok(full.get(`/compute/instances/${instance.id}/volumes`))).results).toBe(9);
  });

  it('persist_across_boots false: the volume goes in no config, and the instance must be running', async () => {
    const instance = await deploy();
    const volume = await volumeIn();
    expect((await ok(attach(volume.id, { compute_id: instance.id, persist_across_boots: false }))).compute_id).toBe(instance.id);
    expect(await volumesInConfigs(instance.id)).toEqual([]);
    expect((await ok(full.get(`/compute/instances/${instance.id}/volumes`))).data.map((v: any) => v.id)).toEqual([volume.id]);
    const [config] = await configsOf(instance.id);
    const other = await volumeIn();
    expect((await refused(attach(other.id, { compute_id: instance.id, config_id: config.id, persist_across_boots: false }))).map((e) => e.field)).toContain('config_id');
    expect((await refused(attach(other.id, { persist_across_boots: false }))).map((e) => e.field)).toContain('compute_id');
    const offline = await deploy({ booted: false });
    expect((await refused(attach(other.id, { compute_id: offline.id, persist_across_boots: false })))[0]).toMatchObject({ field: 'compute_id', reason: expect.stringMatching(/is offline; .* needs a running instance/) });
    const provisioning = await withTransitions(clock, 60_000, () => deploy());
    expect((await refused(attach(other.id, { compute_id: provisioning.id, persist_across_boots: false })))[0]!.reason).toMatch(/is provisioning/);
    clock.advance(60_000);
    await ok(attach(other.id, { compute_id: provisioning.id, persist_across_boots: false }));
  });

  it('volumes attached without persistence: at most the instance\'s RAM in GB (up to 64)', async () => {
    const instance = await deploy({ type: 'g6-standard-1' }); // 2 GB
    const [a, b, c] = [await volumeIn(), await volumeIn(), await volumeIn()];
    await ok(attach(a.id, { compute_id: instance.id, persist_across_boots: false }));
    await ok(attach(b.id, { compute_id: instance.id, persist_across_boots: false }));
    expect((await refused(attach(c.id, { compute_id: instance.id, persist_across_boots: false })))[0]).toMatchObject({ field: 'compute_id', reason: expect.stringMatching(/at most 2 volumes attached without persist_across_boots/) });
    // Persistent volumes are counted apart.
    await ok(attach(c.id, { compute_id: instance.id }));
    const nanode = await deploy({ type: 'g6-nanode-1', image: 'compute/alpine3.19' }); // 1 GB
    const [d, e] = [await volumeIn(), await volumeIn()];
    await ok(attach(d.id, { compute_id: nanode.id, persist_across_boots: false }));
    expect((await refused(attach(e.id, { compute_id: nanode.id, persist_across_boots: false })))[0]!.reason).toMatch(/at most 1 volume attached/);
  });

  it('a volume attached without persistence leaves when the instance stops running; persistent ones stay', async () => {
    const instance = await deploy();
    const transient = await volumeIn();
    const kept = await ok(full.post('/volumes', { label: 'kept', compute_id: instance.id }));
    await ok(attach(transient.id, { compute_id: instance.id, persist_across_boots: false }));
    await ok(full.post(`/compute/instances/${instance.id}/shutdown`));
    expect([await attachedTo(transient.id), await attachedTo(kept.id)]).toEqual([null, instance.id]);
    await boot(instance.id);
    await ok(attach(transient.id, { compute_id: instance.id, persist_across_boots: false }));
    await boot(instance.id); // a reboot
    expect([await attachedTo(transient.id), await attachedTo(kept.id)]).toEqual([null, instance.id]);
    // Placed in a profile's slot, it is attached for good.
    await ok(attach(transient.id, { compute_id: instance.id, persist_across_boots: false }));
    const [config] = await configsOf(instance.id);
    await ok(full.put(`/compute/instances/${instance.id}/configs/${config.id}`, { devices: { ...config.devices, sdh: { volume_id: transient.id } } }));
    await ok(full.post(`/compute/instances/${instance.id}/shutdown`));
    expect(await attachedTo(transient.id)).toBe(instance.id);
  });

  it('an image is captured from an instance\'s disk', async () => {
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    const image = await ok(full.post('/images', { disk_id: diskIds(config)[0], label: 'captured' }));
    expect(image).toMatchObject({ label: 'captured', size: 81920 - 512, is_public: false });
  });

  it('capturing an image needs images:read_write and computes:read_only', async () => {
    const instance = await deploy();
    const [config] = await configsOf(instance.id);
    const errors = await refused(t.as({ token: imagesOnly.token }).post('/images', { disk_id: diskIds(config)[0] }), 403);
    expect(errors[0]!.reason).toMatch(/computes:read_only/);
    expect((await ok(t.as({ token: capturer.token }).post('/images', { disk_id: diskIds(config)[0] }))).size).toBe(81920 - 512);
  });

  it('Managed compute settings: one entry per instance, with its label and address; none once it is deleted', async () => {
    const instance = await deploy({ label: 'managed-web' });
    const instances = await ok(full.get('/compute/instances'));
    const settings = await ok(full.get('/managed/compute-settings'));
    expect(settings.results).toBe(instances.results);
    expect(await ok(full.get(`/managed/compute-settings/${instance.id}`))).toEqual({ id: instance.id, label: 'managed-web', group: '', ssh: { access: true, user: 'root', ip: instance.ipv4[0], port: 22 } });
    await ok(full.put(`/compute/instances/${instance.id}`, { label: 'managed-web-2' }));
    expect((await ok(full.get(`/managed/compute-settings/${instance.id}`))).label).toBe('managed-web-2');
    await ok(full.delete(`/compute/instances/${instance.id}`));
    await refused(full.get(`/managed/compute-settings/${instance.id}`), 404);
  });

  it('kernels are a read-only list without authorization', async () => {
    const list = await ok(t.as(null).get('/compute/kernels'));
    expect(list.results).toBeGreaterThan(0);
    expect(await ok(t.as(null).get(`/compute/kernels/${encodeURIComponent(list.data[0].id)}`))).toEqual(list.data[0]);
    await refused(t.as(null).get('/compute/kernels/compute%2Fnone'), 404);
  });
});
