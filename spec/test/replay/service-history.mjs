// What the replay (replay.mjs) knows about the real service beyond the bundle: how its names map
// to ours, what it added after the reference release 4.115.0, and how the recorder masks values.
// Each entry is a rule about the service, not about one recording, and says why it holds.

/** The service's names → ours (as the recordings' README says). */
export const NAME_MAP = {
  paths: [
    ['/nodebalancers', '/balancers'],
    ['/linode/instances', '/compute/instances'],
    ['/linode/kernels', '/compute/kernels'],
    ['/managed/linode-settings', '/managed/compute-settings'],
  ],
  keys: {
    linode_id: 'compute_id', linode_label: 'compute_label', linodes: 'computes',
    nodebalancer_id: 'balancer_id', nodebalancers: 'balancers', lkecluster_id: 'kubecluster_id',
    longviewclient_id: 'metrics_client_id', gravatar_id: 'avatar_id', from_linode: 'from_provider',
    stackscript_id: 'script_id', stackscript_data: 'script_data',
  },
  idPrefixes: [['linode/', 'compute/']],
  types: { linode: 'compute', nodebalancer: 'balancer' },
};

// `operations` limits an entry to those operationIds, `kind` to requests or responses, `under`
// to fields at a JSON pointer matching it (a field's parent, `''` for the root). A field that
// `marks: 'object'` makes the object holding it of a newer kind: taken out of its array, or the
// whole body when it is the body. `requirement` (every entry has one) quotes the rule of the
// requirements that the service's newer behaviour contradicts, most often the row that lists every
// field of the request body: a body these entries explain is a conflict with the requirements (the
// requirements stand; DECISIONS.md section 14 names each rule).
const ANY_INTERFACE = /(^|\/)interfaces\/\d+$/;
const COMPUTE_CREATE = ['createComputeInstance'];
// Rows of the requirements that list every field of a request body (quoted by several entries).
const INSTANCE_FIELDS = 'Compute Instance (writable fields): label, region, type, image, root_pass, authorized_keys, authorized_users, backup_id, backups_enabled, booted, group, private_ip, script_id, script_data, swap_size, tags, interfaces, watchdog_enabled, alerts, backups';
const BALANCER_CREATE = 'POST /balancers: region (Req), label, client_conn_throttle, configs';
const NODE_FIELDS = 'Balancer Node: address, label, mode, weight (POST …/nodes, PUT …/nodes/{nodeId}; each node object of a rebuild)';

export const NEWER = {
  // Endpoints of the service newer than 4.115.0 whose paths our templates would otherwise match
  // through a parameter (`availability` taken for a region id).
  endpoints: [
    { method: 'get', path: /^\/regions\/availability$/, reason: 'region availability (plan availability per region) came after 4.115.0; the segment is not a region id' },
    { method: 'get', path: /^\/volumes\/types$/, reason: 'volume types (per-region pricing) came after 4.115.0; the segment is not a volume id' },
    { path: /^\/images\/sharegroups(\/|$)/, reason: 'image share groups came after 4.115.0; the segment is not an image id' },
  ],

  // Fields added after 4.115.0. Taken out of a body before it is validated again. Each request
  // field quotes the row of the requirements that lists the fields of its body, which has none.
  fields: [
    // Compute instances.
    { name: 'firewall_id', operations: COMPUTE_CREATE, kind: 'request', reason: 'attaching a Cloud Firewall at creation came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'firewall_id', operations: ['createBalancer'], kind: 'request', reason: 'attaching a Cloud Firewall at creation came after 4.115.0', requirement: BALANCER_CREATE },
    { name: 'ipv4', operations: COMPUTE_CREATE, kind: 'request', under: /^$/, reason: 'reserved IPv4 addresses at creation came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'disk_encryption', operations: COMPUTE_CREATE, kind: 'request', reason: 'disk encryption came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'placement_group', operations: COMPUTE_CREATE, kind: 'request', reason: 'placement groups came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'maintenance_policy', operations: COMPUTE_CREATE, kind: 'request', reason: 'maintenance policies came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'maintenance_policy', operations: ['updateComputeInstance'], kind: 'request', reason: 'maintenance policies came after 4.115.0', requirement: 'PUT /compute/instances/{computeId}: alerts, backups, group, label, tags, watchdog_enabled' },
    { name: 'metadata', operations: COMPUTE_CREATE, kind: 'request', reason: 'instance metadata (cloud-init user data) came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'metadata', operations: ['cloneComputeInstance'], kind: 'request', reason: 'instance metadata (cloud-init user data) came after 4.115.0', requirement: 'Clone body: `backups_enabled`, `configs`, `disks`, `group`, `label`, `compute_id`, `region`, `type`' },
    { name: 'kernel', operations: COMPUTE_CREATE, kind: 'request', under: /^$/, reason: 'choosing the kernel and boot disk size at creation came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'boot_size', operations: COMPUTE_CREATE, kind: 'request', reason: 'choosing the kernel and boot disk size at creation came after 4.115.0', requirement: INSTANCE_FIELDS },
    { name: 'migration_type', operations: ['resizeComputeInstance'], kind: 'request', reason: 'warm and cold resize migrations came after 4.115.0', requirement: 'POST /compute/instances/{computeId}/resize: type (Req, string), allow_auto_disk_resize (boolean, default true)' },
    // VPC interfaces: VPCs came after 4.115.0.
    { name: /^(subnet_id|vpc_id|ipv4|ipv6|ip_ranges|primary|active)$/, under: ANY_INTERFACE, reason: 'VPC interface fields (VPCs came after 4.115.0)', requirement: 'Interface `purpose`: Req; enum `public`, `vlan`' },
    // Config profiles with more than eight device slots (volume limit extension).
    { name: /^sd[i-z]$/, under: /^(\/data\/\d+)?\/devices$/, reason: 'device slots beyond sdh (the volume limit extension) came after 4.115.0', requirement: 'Config `devices`: keys `sda`..`sdh`' },
    // Balancers.
    { name: 'vpcs', operations: ['createBalancer'], kind: 'request', reason: 'balancers in a VPC came after 4.115.0', requirement: BALANCER_CREATE },
    { name: 'client_udp_sess_throttle', operations: ['createBalancer', 'updateBalancer'], kind: 'request', reason: 'UDP balancing came after 4.115.0', requirement: 'Balancer config `protocol`: enum `http`, `https`, `tcp`' },
    { name: 'tags', operations: ['createBalancer'], kind: 'request', reason: 'tags on balancer create came after 4.115.0', requirement: 'Balancer `tags`: update only' },
    { name: 'subnet_id', operations: ['createBalancerNode', 'updateBalancerNode'], kind: 'request', reason: 'balancer nodes in a VPC subnet came after 4.115.0', requirement: NODE_FIELDS },
    { name: 'subnet_id', operations: ['rebuildBalancerConfig', 'createBalancer'], under: /\/nodes\/\d+$/, reason: 'balancer nodes in a VPC subnet came after 4.115.0', requirement: NODE_FIELDS },
    { name: 'udp_check_port', reason: 'UDP balancing came after 4.115.0', requirement: 'Balancer config `protocol`: enum `http`, `https`, `tcp`' },
    // Volumes and images.
    { name: 'encryption', operations: ['createVolume'], kind: 'request', reason: 'volume encryption came after 4.115.0', requirement: 'POST /volumes: label (Req), size, region, compute_id, config_id, tags' },
    { name: /^(cloud_init|tags)$/, operations: ['createImage'], kind: 'request', reason: 'cloud-init image flags and image tags came after 4.115.0', requirement: 'POST /images: disk_id (Req, integer), label, description' },
    { name: /^(cloud_init|tags)$/, operations: ['uploadImage'], kind: 'request', reason: 'cloud-init image flags and image tags came after 4.115.0', requirement: 'POST /images/upload: label (Req), region (Req), description' },
    // Object Storage: regions replaced clusters after 4.115.0.
    { name: 'region', operations: ['createBucket'], kind: 'request', under: /^$/, marks: 'object', reason: 'buckets addressed by region instead of cluster came after 4.115.0', requirement: 'Bucket `cluster`: Req (POST /object-storage/buckets: label (Req), cluster (Req))' },
    { name: 'endpoint_type', operations: ['createBucket'], kind: 'request', reason: 'Object Storage endpoint types came after 4.115.0', requirement: 'POST /object-storage/buckets: label (Req), cluster (Req), acl, cors_enabled' },
    { name: 'regions', operations: ['createAccessKey'], kind: 'request', reason: 'regional access keys came after 4.115.0', requirement: 'POST /object-storage/keys: label, bucket_access' },
    { name: 'regions', operations: ['updateAccessKey'], kind: 'request', reason: 'regional access keys came after 4.115.0', requirement: 'PUT /object-storage/keys/{keyId}: label' },
    { name: 'region', operations: ['createAccessKey'], kind: 'request', under: /^\/bucket_access\/\d+$/, marks: 'object', reason: 'bucket access by region instead of cluster came after 4.115.0', requirement: 'Key: `bucket_access` array (create only) of objects with `bucket_name` string, `cluster` string, `permissions`' },
    // Tags.
    { name: 'reserved_ipv4_addresses', operations: ['createTag'], kind: 'request', reason: 'tagging reserved IP addresses came after 4.115.0', requirement: 'POST /tags: label (Req), domains, computes, balancers, volumes' },
  ],

  // Rules the service relaxed after 4.115.0: a body they match is of a newer kind.
  bodies: [
    {
      operations: COMPUTE_CREATE, kind: 'request',
      test: (body) => typeof body.image === 'string' && body.root_pass == null && [body.authorized_keys, body.authorized_users].some((list) => Array.isArray(list) && list.length > 0),
      reason: 'image deploys with SSH keys and no root password came after 4.115.0 (the requirements: root_pass is required when deploying from an image)',
      requirement: 'Compute instance `root_pass`: required when deploying from an image',
    },
  ],

  // Values added after 4.115.0: an object holding one is of a newer kind (a VPC interface, a UDP
  // config). In an array it is taken out; as the whole body, the body is newer.
  values: [
    { field: 'purpose', values: ['vpc'], reason: 'VPC interfaces (VPCs came after 4.115.0)', requirement: 'Interface `purpose`: Req; enum `public`, `vlan`' },
    { field: 'protocol', values: ['udp'], reason: 'UDP balancing came after 4.115.0', requirement: 'Balancer config `protocol`: enum `http`, `https`, `tcp`' },
    { field: 'type', values: ['reserved_ipv4_address'], reason: 'tagging reserved IP addresses came after 4.115.0', requirement: 'POST /tags: label (Req), domains, computes, balancers, volumes' },
  ],
};

// The recorder's masks and stand-ins of the same kind to try in their place. A mask is only the
// cause of a failure when some stand-in makes the body valid.
export const REDACTION = [
  { pattern: /\b192\.0\.2\.0\b/, standIns: ['192.168.0.1', '203.0.113.1'], reason: 'IPv4 addresses are masked to 192.0.2.0 (a private address where the field needs one)' },
  { pattern: /\b1234::5678\b/, standIns: ['2001:db8::5678'], reason: 'IPv6 addresses are masked to 1234::5678' },
  { pattern: /\[SANITIZED\]/, standIns: ['stand-in-secret-value'], reason: 'secrets and keys are masked to [SANITIZED]' },
];
