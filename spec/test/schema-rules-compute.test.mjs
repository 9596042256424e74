// The Compute rules of the requirements that JSON Schema can hold: for each rule, a value the
// schema must accept and one it must reject (the form of schema-rules.test.mjs).
import { describeSchemaRules, parameter, schema, text, views } from './schema-rules-runner.mjs';

const base = { region: 'us-east', type: 'g6-standard-2' };
const fromImage = { ...base, image: 'compute/debian11', root_pass: 'correct-Horse-42' };
const publicIf = { purpose: 'public', label: null, ipam_address: null };
const vlan = (label, ipam) => ({ purpose: 'vlan', label, ...(ipam === undefined ? {} : { ipam_address: ipam }) });
const disk = (id) => ({ disk_id: id, volume_id: null });
const volume = (id) => ({ disk_id: null, volume_id: id });

const create = schema('ComputeInstanceCreateRequest');
const update = schema('ComputeInstanceUpdateRequest');
const clone = schema('ComputeInstanceCloneRequest');
const configCreate = schema('ComputeConfigCreateRequest');
const configUpdate = schema('ComputeConfigUpdateRequest');

// [view, pointer, rule, value, valid?]
const cases = [
  // Instance label (ComputeLabel)
  ['request', schema('ComputeLabel'), 'label is 3..64', 'web', true],
  ['request', schema('ComputeLabel'), 'label is 3..64', 'ab', false],
  ['request', schema('ComputeLabel'), 'label is 3..64', text(64), true],
  ['request', schema('ComputeLabel'), 'label is 3..64', text(65), false],
  ['request', schema('ComputeLabel'), 'label uses letters, digits, -, _ and .', 'web_1.prod-a', true],
  ['request', schema('ComputeLabel'), 'label uses letters, digits, -, _ and .', 'web 1', false],
  ['request', schema('ComputeLabel'), 'label starts alphanumeric', '-web1', false],
  ['request', schema('ComputeLabel'), 'label ends alphanumeric', 'web1.', false],
  ['request', schema('ComputeLabel'), 'label has no two separators in a row', 'web--1', false],
  ['request', schema('ComputeLabel'), 'label has no two separators in a row (of different kinds)', 'web-_1', false],

  // Instance create: modes and their fields
  ['request', create, 'region and type are required (an empty instance)', base, true],
  ['request', create, 'region and type are required', { region: 'us-east' }, false],
  ['request', create, 'region and type are required', { type: 'g6-standard-2' }, false],
  ['request', create, 'image ids start with compute/ or private/', { ...fromImage, image: 'private/15' }, true],
  ['request', create, 'image ids start with compute/ or private/', { ...fromImage, image: 'debian11' }, false],
  ['request', create, 'an image deploy requires root_pass', fromImage, true],
  ['request', create, 'an image deploy requires root_pass', { ...base, image: 'compute/debian11' }, false],
  ['request', create, 'root_pass without an image is accepted and has no effect (the service takes it)', { ...base, root_pass: 'correct-Horse-42' }, true],
  ['request', create, 'optional fields sent as null are not given', { ...base, image: null, root_pass: null, tags: null, interfaces: null, backup_id: null }, true],
  ['request', create, 'a null image needs no root_pass', { ...base, image: null }, true],
  ['request', create, 'a required field cannot be null', { ...base, region: null }, false],
  ['request', create, 'root_pass is 7..128', { ...fromImage, root_pass: text(7) }, true],
  ['request', create, 'root_pass is 7..128', { ...fromImage, root_pass: text(6) }, false],
  ['request', create, 'root_pass is 7..128', { ...fromImage, root_pass: text(129) }, false],
  ['request', create, 'authorized_keys and authorized_users with an image', { ...fromImage, authorized_keys: ['ssh-ed25519 AAAA admin@example.org'], authorized_users: ['alice'] }, true],
  ['request', create, 'authorized_keys only with an image', { ...base, authorized_keys: ['ssh-ed25519 AAAA admin@example.org'] }, false],
  ['request', create, 'authorized_users only with an image', { ...base, authorized_users: ['alice'] }, false],
  ['request', create, 'a backup deploy takes backup_id', { ...base, backup_id: 2345 }, true],
  ['request', create, 'backup_id excludes image', { ...fromImage, backup_id: 2345 }, false],
  ['request', create, 'script_id needs an image', { ...fromImage, script_id: 10079, script_data: { site_title: 'Blog' } }, true],
  ['request', create, 'script_id needs an image', { ...base, script_id: 10079 }, false],
  ['request', create, 'script_id not with a backup', { ...base, backup_id: 2345, script_id: 10079 }, false],
  ['request', create, 'script_id not with a private image', { ...fromImage, image: 'private/15', script_id: 10079 }, false],
  ['request', create, 'script_data is an object', { ...fromImage, script_id: 10079, script_data: 'site_title=Blog' }, false],
  ['request', create, 'swap_size is a non-negative integer', { ...fromImage, swap_size: 1024 }, true],
  ['request', create, 'swap_size is a non-negative integer', { ...fromImage, swap_size: -1 }, false],
  ['request', create, 'booted, private_ip, backups_enabled are booleans', { ...fromImage, booted: false, private_ip: true, backups_enabled: true }, true],
  ['request', create, 'booted is a boolean', { ...fromImage, booted: 'no' }, false],
  ['request', create, 'group is accepted (deprecated)', { ...base, group: 'web' }, true],
  ['request', create, 'tags are tag labels (3..50)', { ...base, tags: ['production'] }, true],
  ['request', create, 'tags are tag labels (3..50)', { ...base, tags: ['ab'] }, false],
  ['request', create, 'alerts are update-only', { ...base, alerts: { cpu: 90 } }, false],
  ['request', create, 'backups (schedule) are update-only', { ...base, backups: { schedule: { day: 'Sunday' } } }, false],
  ['request', create, 'watchdog_enabled is update-only', { ...base, watchdog_enabled: true }, false],
  ['request', create, 'unknown fields are rejected', { ...base, status: 'running' }, false],

  // Interfaces (on create; the same schema serves configs)
  ['request', create, 'interfaces: a public one and VLANs', { ...base, interfaces: [publicIf, vlan('backend', '10.0.0.1/24'), vlan('storage', null)] }, true],
  ['request', create, 'interfaces: an empty array', { ...base, interfaces: [] }, true],
  ['request', create, 'interfaces: at most three', { ...base, interfaces: [publicIf, vlan('a'), vlan('b'), vlan('c')] }, false],
  ['request', create, 'interfaces: at most one public', { ...base, interfaces: [publicIf, publicIf] }, false],
  ['request', create, 'interfaces: no public one is fine', { ...base, interfaces: [vlan('a'), vlan('b')] }, true],
  ['request', schema('ComputeInterface'), 'purpose is required', { label: 'backend' }, false],
  ['request', schema('ComputeInterface'), 'purpose is public or vlan', { purpose: 'private', label: 'backend' }, false],
  ['request', schema('ComputeInterface'), 'a vlan interface needs a label', { purpose: 'vlan' }, false],
  ['request', schema('ComputeInterface'), 'a vlan interface needs a label', { purpose: 'vlan', label: '' }, false],
  ['request', schema('ComputeInterface'), 'vlan labels are ASCII letters, digits and -', vlan('backend-2'), true],
  ['request', schema('ComputeInterface'), 'vlan labels are ASCII letters, digits and -', vlan('backend_2'), false],
  ['request', schema('ComputeInterface'), 'vlan labels are 1..64', vlan(text(64)), true],
  ['request', schema('ComputeInterface'), 'vlan labels are 1..64', vlan(text(65)), false],
  ['request', schema('ComputeInterface'), 'a public interface has an empty or null label', { purpose: 'public', label: '' }, true],
  ['request', schema('ComputeInterface'), 'a public interface has an empty or null label', { purpose: 'public', label: 'backend' }, false],
  ['request', schema('ComputeInterface'), 'ipam_address is for vlan only', { purpose: 'public', ipam_address: '' }, true],
  ['request', schema('ComputeInterface'), 'ipam_address is for vlan only', { purpose: 'public', ipam_address: '10.0.0.1/24' }, false],
  ['request', schema('ComputeInterface'), 'ipam_address is a private IPv4 CIDR', vlan('backend', '192.168.1.20/24'), true],
  ['request', schema('ComputeInterface'), 'ipam_address is a private IPv4 CIDR', vlan('backend', '172.16.0.1/12'), true],
  ['request', schema('ComputeInterface'), 'ipam_address is a private IPv4 CIDR', vlan('backend', '203.0.113.5/24'), false],
  ['request', schema('ComputeInterface'), 'ipam_address has a prefix length', vlan('backend', '10.0.0.1'), false],
  ['request', schema('ComputeInterface'), 'ipam_address prefix length is 0..32', vlan('backend', '10.0.0.1/33'), false],
  ['request', schema('ComputeInterface'), 'ipam_address octets are 0..255', vlan('backend', '10.0.0.256/24'), false],
  ['request', schema('ComputeInterface'), 'interfaces are closed', { ...publicIf, id: 1 }, false],

  // Instance update
  ['request', update, 'updates are partial', {}, true],
  ['request', update, 'alerts, backups, group, label, tags, watchdog_enabled', { alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 }, backups: { schedule: { day: 'Sunday', window: 'W2' } }, group: 'web', label: 'web-2', tags: ['web'], watchdog_enabled: false }, true],
  ['request', update, 'alerts are partial', { alerts: { transfer_quota: 90 } }, true],
  ['request', update, 'alerts are non-negative integers (0 disables)', { alerts: { cpu: 0 } }, true],
  ['request', update, 'alerts are non-negative integers', { alerts: { cpu: -1 } }, false],
  ['request', update, 'alerts are the five thresholds', { alerts: { memory: 90 } }, false],
  ['request', update, 'backup day is a weekday, Scheduling or null', { backups: { schedule: { day: null } } }, true],
  ['request', update, 'backup day is a weekday, Scheduling or null', { backups: { schedule: { day: 'Funday' } } }, false],
  ['request', update, 'backup window is W0..W22 (even), Scheduling or null', { backups: { schedule: { window: 'Scheduling' } } }, true],
  ['request', update, 'backup window is W0..W22 (even), Scheduling or null', { backups: { schedule: { window: 'W1' } } }, false],
  ['request', update, 'backups.enabled is not set by an update', { backups: { enabled: true } }, false],
  ['request', update, 'label follows ComputeLabel', { label: 'a..b' }, false],
  ['request', update, 'region and type are not updatable', { region: 'eu-west' }, false],
  ['request', update, 'image is not updatable', { image: 'compute/debian12' }, false],

  // Instance response
  ['response', schema('ComputeInstance'), 'image is null for an empty instance', { ...instance(), image: null }, true],
  ['response', schema('ComputeInstance'), 'status is one of the instance statuses', { ...instance(), status: 'paused' }, false],
  ['response', schema('ComputeInstance'), 'an unchosen schedule reads Scheduling', { ...instance(), backups: { enabled: true, schedule: { day: 'Scheduling', window: 'Scheduling' } } }, true],
  ['response', schema('ComputeInstance'), 'every field is present', { ...instance(), specs: undefined }, false],

  // Backups
  ['response', schema('ComputeBackup'), 'a snapshot has a label', { ...backup(), type: 'snapshot', label: 'before-upgrade' }, true],
  ['response', schema('ComputeBackup'), 'type is auto or snapshot', { ...backup(), type: 'manual' }, false],
  ['response', schema('ComputeBackup'), 'status is one of the backup statuses', { ...backup(), status: 'needsPostProcessing' }, true],
  ['response', schema('ComputeBackup'), 'status is one of the backup statuses', { ...backup(), status: 'done' }, false],
  ['response', schema('ComputeBackup'), 'finished is null until the backup finishes', { ...backup(), status: 'running', finished: null }, true],
  ['response', schema('ComputeBackup'), 'disks are {label, size, filesystem}', { ...backup(), disks: [{ label: 'Root', size: 100 }] }, false],
  ['response', schema('ComputeBackups'), 'the list is automatic plus the snapshot slot', { automatic: [backup()], snapshot: { in_progress: null, current: { ...backup(), type: 'snapshot', label: 'known-good' } } }, true],
  ['response', schema('ComputeBackups'), 'the snapshot slot holds in_progress and current', { automatic: [], snapshot: { in_progress: null } }, false],
  ['response', schema('ComputeBackups'), 'automatic holds backups', { automatic: [{ id: 1 }], snapshot: { in_progress: null, current: null } }, false],
  ['request', schema('ComputeSnapshotCreateRequest'), 'snapshot label is required', {}, false],
  ['request', schema('ComputeSnapshotCreateRequest'), 'snapshot label is 1..255', { label: text(255) }, true],
  ['request', schema('ComputeSnapshotCreateRequest'), 'snapshot label is 1..255', { label: '' }, false],
  ['request', schema('ComputeSnapshotCreateRequest'), 'snapshot label is 1..255', { label: text(256) }, false],
  ['request', schema('ComputeBackupRestoreRequest'), 'compute_id is required', { overwrite: true }, false],
  ['request', schema('ComputeBackupRestoreRequest'), 'overwrite is a boolean', { compute_id: 124, overwrite: true }, true],
  ['request', schema('ComputeBackupRestoreRequest'), 'overwrite is a boolean', { compute_id: 124, overwrite: 'yes' }, false],

  // Boot, rescue, resize
  ['request', schema('ComputeInstanceBootRequest'), 'config_id is optional', {}, true],
  ['request', schema('ComputeInstanceBootRequest'), 'config_id is an integer', { config_id: 'main' }, false],
  ['request', schema('ComputeInstanceRescueRequest'), 'rescue slots are sda..sdg', { devices: { sda: disk(25674), sdg: volume(12345) } }, true],
  ['request', schema('ComputeInstanceRescueRequest'), 'sdh is reserved in rescue mode', { devices: { sdh: disk(25674) } }, false],
  ['request', schema('ComputeInstanceRescueRequest'), 'a slot holds a disk or a volume, not both', { devices: { sda: { disk_id: 1, volume_id: 2 } } }, false],
  ['request', schema('ComputeInstanceResizeRequest'), 'type is required', { allow_auto_disk_resize: false }, false],
  ['request', schema('ComputeInstanceResizeRequest'), 'allow_auto_disk_resize is a boolean', { type: 'g6-standard-4', allow_auto_disk_resize: false }, true],
  ['request', schema('ComputeInstanceResizeRequest'), 'allow_auto_disk_resize is a boolean', { type: 'g6-standard-4', allow_auto_disk_resize: 'yes' }, false],

  // Clone: to a new instance or onto an existing one
  ['request', clone, 'to a new instance: region and type', { region: 'us-east', type: 'g6-standard-2' }, true],
  ['request', clone, 'to a new instance: region and type both required', { region: 'us-east' }, false],
  ['request', clone, 'to a new instance: region and type both required', { type: 'g6-standard-2' }, false],
  ['request', clone, 'to a new instance: label, backups_enabled, group, configs, disks', { region: 'us-east', type: 'g6-standard-2', label: 'web-1-clone', backups_enabled: true, group: 'web', configs: [23456], disks: [25675] }, true],
  ['request', clone, 'to a new instance: label follows ComputeLabel', { region: 'us-east', type: 'g6-standard-2', label: 'ab' }, false],
  ['request', clone, 'onto an existing instance: compute_id', { compute_id: 124, configs: [], disks: [25675], group: 'web' }, true],
  ['request', clone, 'onto an existing instance: no region or type', { compute_id: 124, region: 'us-east' }, false],
  ['request', clone, 'onto an existing instance: no region or type', { compute_id: 124, region: 'us-east', type: 'g6-standard-2' }, false],
  ['request', clone, 'onto an existing instance: label is for new instances only', { compute_id: 124, label: 'db-1' }, false],
  ['request', clone, 'onto an existing instance: backups_enabled is accepted and ignored (the official client always sends it)', { compute_id: 124, backups_enabled: false }, true],
  ['request', clone, 'onto an existing instance: new-instance fields may be sent as null', { compute_id: 124, region: null, type: null, label: null }, true],
  ['request', clone, 'to a new instance: compute_id may be sent as null', { region: 'us-east', type: 'g6-standard-2', compute_id: null, private_ip: true }, true],
  ['request', clone, 'a target is required', { configs: [23456] }, false],
  ['request', clone, 'configs and disks hold integer ids', { compute_id: 124, configs: ['main'] }, false],

  // Configuration profiles
  ['request', configCreate, 'label and devices are required; devices may be empty', { label: 'main', devices: {} }, true],
  ['request', configCreate, 'label and devices are required', { label: 'main' }, false],
  ['request', configCreate, 'label and devices are required', { devices: {} }, false],
  ['request', configCreate, 'label is 1..48', { label: text(48), devices: {} }, true],
  ['request', configCreate, 'label is 1..48', { label: text(49), devices: {} }, false],
  ['request', configCreate, 'label is 1..48', { label: '', devices: {} }, false],
  ['request', configCreate, 'device slots are sda..sdh', { label: 'main', devices: { sda: disk(1), sdh: volume(2) } }, true],
  ['request', configCreate, 'device slots are sda..sdh', { label: 'main', devices: { sdi: disk(1) } }, false],
  ['request', configCreate, 'a slot holds a disk or a volume', { label: 'main', devices: { sda: { disk_id: 1, volume_id: 2 } } }, false],
  ['request', configCreate, 'a slot with both ids null is empty', { label: 'main', devices: { sda: { disk_id: null, volume_id: null } } }, true],
  ['request', configCreate, 'a slot may name only the disk', { label: 'main', devices: { sda: { disk_id: 1 } } }, true],
  ['request', configCreate, 'a slot may name only the volume', { label: 'main', devices: { sdb: { volume_id: 7 } } }, true],
  ['request', schema('ComputeInstanceRescueRequest'), 'a rescue slot may name only the disk', { devices: { sda: { disk_id: 1 } } }, true],
  ['response', schema('ComputeConfig'), 'a config answer lists both ids of every slot', { ...config(), devices: { sda: { disk_id: 1 } } }, false],
  ['request', configCreate, 'a slot has only disk_id and volume_id', { label: 'main', devices: { sda: { ...disk(1), size: 10 } } }, false],
  ['request', configCreate, 'fullvirt leaves sde..sdh unavailable', { label: 'main', devices: { sde: disk(1) }, virt_mode: 'fullvirt' }, false],
  ['request', configCreate, 'fullvirt leaves sde..sdh unavailable', { label: 'main', devices: { sdd: disk(1) }, virt_mode: 'fullvirt' }, true],
  ['request', configCreate, 'paravirt allows sde..sdh', { label: 'main', devices: { sde: disk(1) }, virt_mode: 'paravirt' }, true],
  ['request', configCreate, 'virt_mode is paravirt or fullvirt', { label: 'main', devices: {}, virt_mode: 'hvm' }, false],
  ['request', configCreate, 'run_level is default, single or binbash', { label: 'main', devices: {}, run_level: 'binbash' }, true],
  ['request', configCreate, 'run_level is default, single or binbash', { label: 'main', devices: {}, run_level: 'multi' }, false],
  ['request', configCreate, 'helpers are the five booleans, partial', { label: 'main', devices: {}, helpers: { devtmpfs_automount: true, network: false } }, true],
  ['request', configCreate, 'helpers are the five booleans', { label: 'main', devices: {}, helpers: { selinux: true } }, false],
  ['request', configCreate, 'comments may be null', { label: 'main', devices: {}, comments: null }, true],
  ['request', configCreate, 'kernel, memory_limit, root_device', { label: 'main', devices: {}, kernel: 'compute/latest-64bit', memory_limit: 2048, root_device: '/dev/sdb' }, true],
  ['request', configCreate, 'memory_limit is a non-negative integer', { label: 'main', devices: {}, memory_limit: -1 }, false],
  ['request', configCreate, 'interfaces follow the interface rules', { label: 'main', devices: {}, interfaces: [publicIf, vlan('backend', '10.0.0.2/24')] }, true],
  ['request', configCreate, 'interfaces follow the interface rules', { label: 'main', devices: {}, interfaces: [publicIf, publicIf] }, false],
  ['request', configCreate, 'unknown fields are rejected', { label: 'main', devices: {}, id: 23456 }, false],
  ['request', configUpdate, 'update takes the create fields, none required', {}, true],
  ['request', configUpdate, 'update takes the create fields, none required', { comments: 'Maintenance profile.' }, true],
  ['request', configUpdate, 'update keeps the create rules', { label: text(49) }, false],
  ['request', configUpdate, 'update keeps the fullvirt rule', { virt_mode: 'fullvirt', devices: { sdf: volume(2) } }, false],
  ['request', configUpdate, 'unknown fields are rejected', { created: '2018-01-01T00:01:01' }, false],
  ['response', schema('ComputeConfig'), 'every field is present', { ...config(), helpers: { network: true } }, false],
  ['response', schema('ComputeConfig'), 'devices may be empty', { ...config(), devices: {} }, true],

  // Stats, transfer, kernels
  ['response', schema('ComputeStats'), 'series are [timestamp, value] points', stats([[1712016000000, 4.5]]), true],
  ['response', schema('ComputeStats'), 'a point is a pair', stats([[1712016000000]]), false],
  ['response', schema('ComputeStats'), 'timestamps are numbers of milliseconds, not date strings', stats([['2024-04-02T00:00:00', 4.5]]), false],
  ['response', schema('ComputeStats'), 'cpu, io, netv4 and netv6 are present', stats([], { netv6: undefined }), false],
  ['response', schema('ComputeStats'), 'the series are wrapped in data, beside a title', stats([]).data, false],
  ['response', schema('ComputeMonthlyTransfer'), 'a past month has bytes in, out and total', { bytes_in: 30, bytes_out: 22, bytes_total: 52 }, true],
  ['response', schema('ComputeMonthlyTransfer'), 'a past month has bytes in, out and total', { used: 52, quota: 4000, billable: 0 }, false],
  ['response', schema('ComputeKernel'), 'xen may be absent (the service no longer sends it)', { ...kernel(), xen: undefined }, true],
  ['response', schema('ComputeKernel'), 'built is null for old kernels', { ...kernel(), built: null }, true],
  ['response', schema('ComputeDevices'), 'an empty slot is null', { sda: { disk_id: 1, volume_id: null }, sdb: null }, true],
  ['response', schema('ComputeTransfer'), 'used, quota and billable', { used: 54480024, quota: 4000, billable: 0 }, true],
  ['response', schema('ComputeTransfer'), 'used, quota and billable', { used: 54480024, quota: 4000 }, false],
  ['response', schema('ComputeKernel'), 'architecture is x86_64 or i386', { ...kernel(), architecture: 'i386' }, true],
  ['response', schema('ComputeKernel'), 'architecture is x86_64 or i386', { ...kernel(), architecture: 'arm64' }, false],

  // Path parameters
  ['request', parameter('ComputeMonth'), 'month is 1..12', 12, true],
  ['request', parameter('ComputeMonth'), 'month is 1..12', 0, false],
  ['request', parameter('ComputeMonth'), 'month is 1..12', 13, false],
  ['request', parameter('ComputeStatsYear'), 'the stats year is an integer', 2024, true],
  ['request', parameter('ComputeStatsYear'), 'the stats year is an integer', 2024.5, false],
  ['request', parameter('ComputeTransferYear'), 'the transfer year is 2000..2037', 2000, true],
  ['request', parameter('ComputeTransferYear'), 'the transfer year is 2000..2037', 2037, true],
  ['request', parameter('ComputeTransferYear'), 'the transfer year is 2000..2037', 1999, false],
  ['request', parameter('ComputeTransferYear'), 'the transfer year is 2000..2037', 2038, false],
  ['request', parameter('ComputeKernelId'), 'kernel ids are strings', 'compute/latest-64bit', true],
  ['request', parameter('ComputeKernelId'), 'kernel ids are strings', '', false],
  ['request', parameter('ComputeId'), 'instance ids are integers', 'web-1', false],
];

function instance() {
  return {
    id: 123, label: 'web-1', region: 'us-east', image: 'compute/debian11', type: 'g6-standard-2', group: '', tags: [], status: 'running',
    hypervisor: 'kvm', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', ipv4: ['203.0.113.10'], ipv6: null,
    specs: { disk: 81920, memory: 4096, vcpus: 2, transfer: 4000 },
    alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
    backups: { enabled: false, schedule: { day: null, window: null } }, watchdog_enabled: true,
  };
}

function backup() {
  return {
    id: 2345, type: 'auto', status: 'successful', created: '2018-04-01T02:00:00', updated: '2018-04-01T02:20:00', finished: '2018-04-01T02:20:00',
    label: null, configs: ['My Debian 11 Profile'], disks: [{ label: 'Debian 11 Disk', size: 79872, filesystem: 'ext4' }],
  };
}

function config() {
  return {
    id: 23456, label: 'main', devices: { sda: disk(25674) }, comments: null,
    helpers: { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
    interfaces: [], kernel: 'compute/latest-64bit', memory_limit: 4096, root_device: '/dev/sda', run_level: 'default', virt_mode: 'paravirt',
    created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01',
  };
}

function stats(points, override = {}) {
  const network = { in: points, out: points, private_in: points, private_out: points };
  return { title: 'web-1 - day (5 min avg)', data: { cpu: points, io: { io: points, swap: points }, netv4: network, netv6: network, ...override } };
}

function kernel() {
  return { id: 'compute/latest-64bit', label: 'Latest 64 bit', version: '6.1.0', kvm: true, xen: false, pvops: true, deprecated: false, architecture: 'x86_64', built: '2023-01-10T12:00:00' };
}

describeSchemaRules('Compute rules held by the schemas', cases);
