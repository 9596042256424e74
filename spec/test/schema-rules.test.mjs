// The rules of the requirements that JSON Schema can hold are in the schemas, not only in prose:
// for each rule, a value the schema must accept and one it must reject. Areas add their own
// files (schema-rules-<area>.test.mjs) in the same form.
import { bundle, describeSchemaRules, parameter, schema, text, views } from './schema-rules-runner.mjs';

// A response example of the bundle with a secret added to it.
const withSecret = (example, name, value) => ({ ...bundle.components.examples[example].value, [name]: value });

// [view, pointer, rule, value, valid?]
const cases = [
  // Shared pieces
  ['request', parameter('Page'), 'page starts at 1', 1, true],
  ['request', parameter('Page'), 'page starts at 1', 0, false],
  ['request', parameter('PageSize'), 'page_size is 25..100', 25, true],
  ['request', parameter('PageSize'), 'page_size is 25..100', 24, false],
  ['request', parameter('PageSize'), 'page_size is 25..100', 101, false],
  ['response', schema('ErrorResponse'), 'errors entries need a reason', { errors: [{ field: 'label' }] }, false],
  ['response', schema('ErrorResponse'), 'field is optional', { errors: [{ reason: 'Invalid Token' }] }, true],
  ['response', schema('EmptyObject'), 'the empty body is {}', {}, true],
  ['response', schema('EmptyObject'), 'the empty body is {}', { ok: true }, false],
  ['response', schema('Timestamp'), 'timestamps have no zone designator', '2018-01-01T00:01:01', true],
  ['response', schema('Timestamp'), 'timestamps have no zone designator', '2018-01-01T00:01:01Z', false],
  ['response', schema('VolumeList'), 'the envelope requires data, page, pages, results', { data: [], page: 1, pages: 1 }, false],

  // Secrets are guarded in every answer that could carry them: forbidden, or pinned to the
  // service's placeholder (house-secrets-guarded says which answers).
  ['response', schema('ComputeInstance'), 'never carries root_pass', withSecret('ComputeInstance', 'root_pass', 'correct-Horse-42'), false],
  ['response', schema('Bucket'), 'never carries a certificate private_key', withSecret('Bucket', 'private_key', '-----BEGIN PRIVATE KEY-----'), false],
  ['response', schema('BucketCertificate'), 'never carries the private_key', { ssl: true, private_key: '-----BEGIN PRIVATE KEY-----' }, false],
  ['response', schema('ManagedCredential'), 'never carries password or username', withSecret('ManagedCredential', 'password', 's3cr3t'), false],
  ['response', schema('BalancerConfig'), 'ssl_key is only the placeholder', withSecret('BalancerConfigHttps', 'ssl_key', '-----BEGIN PRIVATE KEY-----'), false],
  ['response', schema('BalancerConfig'), 'ssl_key is only the placeholder', withSecret('BalancerConfigHttps', 'ssl_key', '<REDACTED>'), true],

  // Regions
  ['response', schema('Region'), 'status is ok or outage', { id: 'us-east', country: 'us', capabilities: [], resolvers: { ipv4: '', ipv6: '' }, status: 'down' }, false],

  // Images
  ['request', parameter('ImageId'), 'image ids start with compute/ or private/', 'compute/debian11', true],
  ['request', parameter('ImageId'), 'image ids start with compute/ or private/', 'private/15', true],
  ['request', parameter('ImageId'), 'image ids start with compute/ or private/', 'debian11', false],
  ['request', schema('ImageCreateRequest'), 'disk_id is required', { label: 'x' }, false],
  ['request', schema('ImageCreateRequest'), 'description is 1..65000', { disk_id: 1, description: text(65001) }, false],
  ['request', schema('ImageCreateRequest'), 'description is 1..65000', { disk_id: 1, description: '' }, false],
  ['request', schema('ImageUploadRequest'), 'label and region are required', { label: 'x' }, false],
  ['request', schema('ImageUploadRequest'), 'label and region are required', { label: 'x', region: 'us-east' }, true],
  ['request', schema('ImageUpdateRequest'), 'description may be set to null', { description: null }, true],
  ['request', schema('ImageUpdateRequest'), 'status is one of the image statuses', { status: 'deleted' }, false],
  ['request', schema('ImageUpdateRequest'), 'read-only fields cannot be updated', { is_public: true }, false],
  ['response', schema('Image'), 'status may be null (public images)', { ...image(), status: null }, true],
  ['response', schema('Image'), 'type is manual or automatic', { ...image(), type: 'custom' }, false],

  // Tags
  ['request', schema('TagCreateRequest'), 'label is 3..50', { label: 'ab' }, false],
  ['request', schema('TagCreateRequest'), 'label is 3..50', { label: text(51) }, false],
  ['request', schema('TagCreateRequest'), 'object lists hold integer ids', { label: 'prod', computes: ['web-1'] }, false],
  ['request', schema('TagCreateRequest'), 'object lists hold integer ids', { label: 'prod', domains: [1], computes: [2], balancers: [3], volumes: [4] }, true],
  ['response', schema('TaggedObject'), 'the data matches the kind named by type', { type: 'domain', data: { id: 1 } }, false],
  ['response', schema('TaggedObject'), 'the kind is one of compute, domain, volume, balancer', { type: 'image', data: {} }, false],

  // Volumes
  ['request', schema('VolumeCreateRequest'), 'label is required', { region: 'us-east' }, false],
  ['request', schema('VolumeCreateRequest'), 'label is 1..32', { label: text(33), region: 'us-east' }, false],
  ['request', schema('VolumeCreateRequest'), 'region is required without compute_id', { label: 'data' }, false],
  ['request', schema('VolumeCreateRequest'), 'region is required without compute_id', { label: 'data', region: 'us-east' }, true],
  ['request', schema('VolumeCreateRequest'), 'compute_id stands in for region', { label: 'data', compute_id: 123 }, true],
  ['request', schema('VolumeCreateRequest'), 'config_id only with compute_id', { label: 'data', region: 'us-east', config_id: 7 }, false],
  ['request', schema('VolumeCreateRequest'), 'config_id only with compute_id', { label: 'data', compute_id: 123, config_id: 7 }, true],
  ['request', schema('VolumeCreateRequest'), 'size is a positive integer', { label: 'data', region: 'us-east', size: 0 }, false],
  ['request', schema('VolumeCreateRequest'), 'tags are tag labels (3..50)', { label: 'data', region: 'us-east', tags: ['ab'] }, false],
  ['request', schema('VolumeCreateRequest'), 'unknown fields are rejected', { label: 'data', region: 'us-east', status: 'active' }, false],
  ['request', schema('VolumeUpdateRequest'), 'only label and tags can change', { size: 40 }, false],
  ['request', schema('VolumeUpdateRequest'), 'only label and tags can change', { label: 'data', tags: ['production'] }, true],
  ['request', schema('VolumeAttachRequest'), 'compute_id is required', { config_id: 7 }, false],
  ['request', schema('VolumeAttachRequest'), 'persist_across_boots false forbids config_id', { compute_id: 123, persist_across_boots: false, config_id: 7 }, false],
  ['request', schema('VolumeAttachRequest'), 'persist_across_boots false forbids config_id', { compute_id: 123, persist_across_boots: false }, true],
  ['request', schema('VolumeAttachRequest'), 'config_id is allowed when persisting', { compute_id: 123, persist_across_boots: true, config_id: 7 }, true],
  ['request', schema('VolumeAttachRequest'), 'config_id is allowed when persisting', { compute_id: 123, config_id: 7 }, true],
  ['request', schema('VolumeCloneRequest'), 'label is required', {}, false],
  ['request', schema('VolumeResizeRequest'), 'size is required', {}, false],
  ['request', schema('VolumeResizeRequest'), 'size is an integer', { size: 40.5 }, false],
  ['response', schema('Volume'), 'status is one of the volume statuses', { ...volume(), status: 'broken' }, false],
  ['response', schema('Volume'), 'compute_id and compute_label are null when detached', { ...volume(), compute_id: null, compute_label: null }, true],
];

function image() {
  return {
    id: 'private/15', label: 'golden', description: null, created: '2021-08-14T22:44:02', updated: '2021-08-14T22:44:02',
    created_by: 'alice', deprecated: false, eol: null, expiry: null, is_public: false, size: 2500, status: 'available', type: 'manual', vendor: null,
  };
}

function volume() {
  return {
    id: 1, label: 'data', status: 'active', size: 20, region: 'us-east', compute_id: 123, compute_label: 'web-1',
    filesystem_path: '/dev/disk/by-id/scsi-0Volume_data', created: '2018-01-01T00:01:01', updated: '2018-01-01T00:01:01', tags: [],
  };
}

describeSchemaRules('rules held by the schemas', cases);
