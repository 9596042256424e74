// The Object Storage rules of the requirements that JSON Schema can hold are in the schemas, not
// only in prose: for each rule, a value the schema must accept and one it must reject. Same form
// as schema-rules.test.mjs; the parameters of each operation are looked up through the operation,
// so a rule holds where clients meet it.
import { describe, expect, it } from 'vitest';
import { bundle, describeSchemaRules, schema, views } from './schema-rules-runner.mjs';
import { pointerGet, pointerOf } from '../lib/schema-views.mjs';

const bucketPath = '/object-storage/buckets/{clusterId}/{bucket}';

// The parameter `name` of an operation, path-level or its own, with `$ref`s followed.
function parameterOf(apiPath, method, name) {
  const pathItem = bundle.paths[apiPath];
  const found = [...(pathItem[method].parameters || []).map((p, i) => [p, pointerOf('paths', apiPath, method, 'parameters', i)]),
    ...(pathItem.parameters || []).map((p, i) => [p, pointerOf('paths', apiPath, 'parameters', i)])]
    .map(([p, at]) => (p.$ref ? [pointerGet(bundle, p.$ref), p.$ref] : [p, at]))
    .find(([p]) => p.name === name);
  if (!found) throw new Error(`${method.toUpperCase()} ${apiPath} has no parameter "${name}"`);
  return { parameter: found[0], pointer: `${found[1]}/schema` };
}
const parameter = (apiPath, method, name) => parameterOf(apiPath, method, name).pointer;

const bucket = () => ({
  label: 'example-bucket', cluster: 'us-east-1', hostname: 'example-bucket.us-east-1.objstorage.example',
  created: '2019-01-01T01:23:45', size: 188318981, objects: 4,
});
const object = () => ({ name: 'photos/cat.jpg', etag: '3c9e2a1b', last_modified: '2019-01-02T08:10:00', owner: 'owner-1', size: 1024 });
const objectList = (fields) => ({ data: [object(), { name: 'photos/' }], next_marker: null, is_truncated: false, ...fields });
const cluster = () => ({
  id: 'us-east-1', domain: 'us-east-1.objstorage.example', status: 'available', region: 'us-east',
  static_site_domain: 'website-us-east-1.objstorage.example',
});
const grant = () => ({ bucket_name: 'example-bucket', cluster: 'us-east-1', permissions: 'read_only' });
const key = (fields) => ({ id: 123, label: 'uploader', access_key: 'KVAKUTGBA4WTR2NSJQ81', limited: true, bucket_access: [grant()], ...fields });
const certificate = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
const privateKey = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n';
const url = (fields) => ({ name: 'photos/cat.jpg', method: 'GET', ...fields });

// [view, pointer, rule, value, valid?]
const cases = [
  // Path and query parameters
  ['request', parameter(bucketPath, 'get', 'clusterId'), 'clusterId is a string', 'us-east-1', true],
  ['request', parameter(bucketPath, 'get', 'clusterId'), 'clusterId is a string', 1, false],
  ['request', parameter(bucketPath, 'get', 'bucket'), 'bucket is a non-empty label', '', false],
  ['request', parameter('/object-storage/keys/{keyId}', 'get', 'keyId'), 'keyId is an integer', 12345, true],
  ['request', parameter('/object-storage/keys/{keyId}', 'get', 'keyId'), 'keyId is an integer', 'abc', false],
  ['request', parameter(`${bucketPath}/object-acl`, 'get', 'name'), 'the object name is a non-empty string', 'photos/cat.jpg', true],
  ['request', parameter(`${bucketPath}/object-acl`, 'get', 'name'), 'the object name is a non-empty string', '', false],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'page_size'), 'object-list page_size is 25..100', 25, true],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'page_size'), 'object-list page_size is 25..100', 100, true],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'page_size'), 'object-list page_size is 25..100', 24, false],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'page_size'), 'object-list page_size is 25..100', 101, false],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'marker'), 'marker is a string', 'photos/cat.jpg', true],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'marker'), 'marker is a string', 7, false],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'delimiter'), 'delimiter is a string', '/', true],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'delimiter'), 'delimiter is a string', true, false],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'prefix'), 'prefix is a string', 'photos/', true],
  ['request', parameter(`${bucketPath}/object-list`, 'get', 'prefix'), 'prefix is a string', 7, false],

  // Buckets
  ['request', schema('BucketCreateRequest'), 'label and cluster are required', { label: 'example-bucket' }, false],
  ['request', schema('BucketCreateRequest'), 'label and cluster are required', { cluster: 'us-east-1' }, false],
  ['request', schema('BucketCreateRequest'), 'label and cluster are required', { label: 'example-bucket', cluster: 'us-east-1' }, true],
  ['request', schema('BucketCreateRequest'), 'acl is one of the four canned ACLs', { label: 'b', cluster: 'us-east-1', acl: 'authenticated-read' }, true],
  ['request', schema('BucketCreateRequest'), 'acl is one of the four canned ACLs', { label: 'b', cluster: 'us-east-1', acl: 'public-read-write' }, true],
  ['request', schema('BucketCreateRequest'), 'custom is not accepted on create', { label: 'b', cluster: 'us-east-1', acl: 'custom' }, false],
  ['request', schema('BucketCreateRequest'), 'acl is one of the four canned ACLs', { label: 'b', cluster: 'us-east-1', acl: 'public' }, false],
  ['request', schema('BucketCreateRequest'), 'cors_enabled is a boolean', { label: 'b', cluster: 'us-east-1', cors_enabled: true }, true],
  ['request', schema('BucketCreateRequest'), 'cors_enabled is a boolean', { label: 'b', cluster: 'us-east-1', cors_enabled: 'yes' }, false],
  ['request', schema('BucketCreateRequest'), 'server-set fields cannot be sent', { label: 'b', cluster: 'us-east-1', hostname: 'b.example' }, false],
  ['response', schema('Bucket'), 'a bucket has label, cluster, hostname, created, size, objects', bucket(), true],
  ['response', schema('Bucket'), 'a bucket has label, cluster, hostname, created, size, objects', { ...bucket(), objects: undefined }, false],
  ['response', schema('Bucket'), 'size is a non-negative number of bytes', { ...bucket(), size: -1 }, false],
  ['response', schema('Bucket'), 'created has no zone designator', { ...bucket(), created: '2019-01-01T01:23:45Z' }, false],
  ['response', schema('BucketList'), 'bucket lists use the pagination envelope', { data: [bucket()], page: 1, pages: 1, results: 1 }, true],
  ['response', schema('BucketList'), 'bucket lists use the pagination envelope', { data: [bucket()] }, false],

  // Bucket access and object ACLs
  ['request', schema('BucketAccessUpdateRequest'), 'acl includes custom', { acl: 'custom' }, true],
  ['request', schema('BucketAccessUpdateRequest'), 'acl is a canned ACL or custom', { acl: 'public' }, false],
  ['request', schema('BucketAccessUpdateRequest'), 'both fields are optional', {}, true],
  ['request', schema('BucketAccessUpdateRequest'), 'cors_enabled is a boolean', { cors_enabled: 'on' }, false],
  ['request', schema('BucketAccessUpdateRequest'), 'only acl and cors_enabled can change', { label: 'renamed' }, false],
  ['request', schema('BucketObjectAclUpdateRequest'), 'acl and name are required', { acl: 'private' }, false],
  ['request', schema('BucketObjectAclUpdateRequest'), 'acl and name are required', { name: 'photos/cat.jpg' }, false],
  ['request', schema('BucketObjectAclUpdateRequest'), 'acl includes custom', { acl: 'custom', name: 'photos/cat.jpg' }, true],
  ['request', schema('BucketObjectAclUpdateRequest'), 'acl is a canned ACL or custom', { acl: 'everyone', name: 'photos/cat.jpg' }, false],
  ['response', schema('BucketObjectAcl'), 'the ACL view has acl and acl_xml', { acl: 'private', acl_xml: '<AccessControlPolicy/>' }, true],
  ['response', schema('BucketObjectAcl'), 'the ACL view has acl and acl_xml', { acl: 'private' }, false],

  // Object list
  ['response', schema('BucketObjectList'), 'the last part has next_marker null', objectList(), true],
  ['response', schema('BucketObjectList'), 'a truncated part names the next marker', objectList({ is_truncated: true, next_marker: 'photos/cat.jpg' }), true],
  ['response', schema('BucketObjectList'), 'a truncated part names the next marker', objectList({ is_truncated: true, next_marker: null }), false],
  ['response', schema('BucketObjectList'), 'the last part has next_marker null', objectList({ is_truncated: false, next_marker: 'photos/cat.jpg' }), false],
  ['response', schema('BucketObjectList'), 'data, next_marker and is_truncated are required', { data: [], is_truncated: false }, false],
  ['response', schema('BucketObjectList'), 'it is not the page/pages envelope', { data: [], page: 1, pages: 1, results: 0 }, false],
  ['response', schema('BucketObjectList'), 'an object has name, etag, last_modified, owner, size', objectList({ data: [{ ...object(), owner: undefined }] }), false],
  ['response', schema('BucketObjectList'), 'last_modified may carry milliseconds and Z (as the storage service answers)', objectList({ data: [{ ...object(), last_modified: '2019-01-02T08:10:00.000Z' }] }), true],
  ['response', schema('BucketObjectList'), 'last_modified is a UTC timestamp', objectList({ data: [{ ...object(), last_modified: '2019-01-02T08:10:00+02:00' }] }), false],
  ['response', schema('BucketObjectList'), 'a group of names carries only its name', objectList({ data: [{ name: 'photos/', size: 0 }] }), false],
  ['response', schema('BucketObject'), 'size is a non-negative number of bytes', { ...object(), size: -1 }, false],

  // Pre-signed URLs
  ['request', schema('BucketObjectUrlCreateRequest'), 'name and method are required', { method: 'GET' }, false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'name and method are required', { name: 'photos/cat.jpg' }, false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'name and method are required', url(), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'method is GET, PUT, POST or DELETE', url({ method: 'PATCH' }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'method is GET, PUT, POST or DELETE', url({ method: 'get' }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is required for PUT', url({ method: 'PUT' }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is required for PUT', url({ method: 'PUT', content_type: 'image/jpeg' }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is required for POST', url({ method: 'POST' }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is required for POST', url({ method: 'POST', content_type: 'text/plain' }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is optional for GET and DELETE', url({ method: 'DELETE' }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'content_type is optional for GET and DELETE', url({ method: 'GET', content_type: 'image/jpeg' }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'expires_in is 360..68400 seconds', url({ expires_in: 360 }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'expires_in is 360..68400 seconds', url({ expires_in: 68400 }), true],
  ['request', schema('BucketObjectUrlCreateRequest'), 'expires_in is 360..68400 seconds', url({ expires_in: 359 }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'expires_in is 360..68400 seconds', url({ expires_in: 68401 }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'expires_in is whole seconds', url({ expires_in: 3600.5 }), false],
  ['request', schema('BucketObjectUrlCreateRequest'), 'unknown fields are rejected', url({ expires: 3600 }), false],
  ['response', schema('BucketObjectUrl'), 'the answer is {url}', { url: 'https://example-bucket.us-east-1.objstorage.example/photos/cat.jpg?X-Amz-Signature=abc' }, true],
  ['response', schema('BucketObjectUrl'), 'the answer is {url}', {}, false],
  ['response', schema('BucketObjectUrl'), 'url is a URL', { url: 'not a url' }, false],

  // Bucket TLS certificates
  ['request', schema('BucketCertificateUploadRequest'), 'certificate and private_key are required', { certificate }, false],
  ['request', schema('BucketCertificateUploadRequest'), 'certificate and private_key are required', { private_key: privateKey }, false],
  ['request', schema('BucketCertificateUploadRequest'), 'certificate and private_key are required', { certificate, private_key: privateKey }, true],
  ['request', schema('BucketCertificateUploadRequest'), 'the certificate is PEM', { certificate: 'MIIBszCCAVmgAwIBAgIU', private_key: privateKey }, false],
  ['request', schema('BucketCertificateUploadRequest'), 'the private key is PEM', { certificate, private_key: 'MIGHAgEAMBMGByqGSM49' }, false],
  ['request', schema('BucketCertificateUploadRequest'), 'the private key is PEM', { certificate, private_key: privateKey.replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY') }, true],
  ['response', schema('BucketCertificate'), 'the view is a boolean indicator {ssl}', { ssl: false }, true],
  ['response', schema('BucketCertificate'), 'the view is a boolean indicator {ssl}', { ssl: 'yes' }, false],
  ['response', schema('BucketCertificate'), 'the view is a boolean indicator {ssl}', {}, false],

  // Clusters
  ['response', schema('Cluster'), 'a cluster has id, domain, status, region, static_site_domain', cluster(), true],
  ['response', schema('Cluster'), 'a cluster has id, domain, status, region, static_site_domain', { ...cluster(), static_site_domain: undefined }, false],
  ['response', schema('Cluster'), 'status is available or unavailable', { ...cluster(), status: 'unavailable' }, true],
  ['response', schema('Cluster'), 'status is available or unavailable', { ...cluster(), status: 'down' }, false],
  ['response', schema('ClusterList'), 'cluster lists use the pagination envelope', { data: [cluster()], page: 1, pages: 1 }, false],

  // Access keys
  ['request', schema('AccessKeyCreateRequest'), 'no bucket_access gives an unlimited key', { label: 'admin' }, true],
  ['request', schema('AccessKeyCreateRequest'), 'an empty bucket_access gives a limited key without access', { label: 'none', bucket_access: [] }, true],
  ['request', schema('AccessKeyCreateRequest'), 'bucket_access entries name bucket, cluster and permissions', { bucket_access: [grant()] }, true],
  ['request', schema('AccessKeyCreateRequest'), 'bucket_access entries name bucket, cluster and permissions', { bucket_access: [{ bucket_name: 'b', cluster: 'us-east-1' }] }, false],
  ['request', schema('AccessKeyCreateRequest'), 'bucket_access entries name bucket, cluster and permissions', { bucket_access: [{ ...grant(), cluster: undefined }] }, false],
  ['request', schema('AccessKeyCreateRequest'), 'permissions is read_write or read_only', { bucket_access: [{ ...grant(), permissions: 'read_write' }] }, true],
  ['request', schema('AccessKeyCreateRequest'), 'permissions is read_write or read_only', { bucket_access: [{ ...grant(), permissions: 'write' }] }, false],
  ['request', schema('AccessKeyCreateRequest'), 'bucket_access entries reject unknown fields', { bucket_access: [{ ...grant(), region: 'us-east' }] }, false],
  ['request', schema('AccessKeyCreateRequest'), 'server-set fields cannot be sent', { label: 'admin', limited: false }, false],
  ['request', schema('AccessKeyUpdateRequest'), 'only the label can change', { label: 'renamed' }, true],
  ['request', schema('AccessKeyUpdateRequest'), 'only the label can change', { bucket_access: [] }, false],
  ['response', schema('AccessKeyCreateResponse'), 'the create answer carries the secret key', { ...key(), secret_key: 'OiA6F5r0niLs3QA2' }, true],
  ['response', schema('AccessKeyCreateResponse'), 'the create answer carries the secret key', key(), false],
  ['response', schema('AccessKey'), 'other answers never carry the secret key', key(), true],
  ['response', schema('AccessKey'), 'other answers carry the secret key only as the placeholder', { ...key(), secret_key: '[REDACTED]' }, true],
  ['response', schema('AccessKey'), 'other answers never carry the secret key', { ...key(), secret_key: 'OiA6F5r0niLs3QA2' }, false],
  ['response', schema('AccessKey'), 'a key has id, label, access_key, limited, bucket_access', { ...key(), access_key: undefined }, false],
  ['response', schema('AccessKey'), 'an unlimited key has bucket_access null', key({ limited: false, bucket_access: null }), true],
  ['response', schema('AccessKey'), 'an unlimited key has bucket_access null', key({ limited: false, bucket_access: [] }), false],
  ['response', schema('AccessKey'), 'a limited key has a bucket_access list, maybe empty', key({ limited: true, bucket_access: [] }), true],
  ['response', schema('AccessKey'), 'a limited key has a bucket_access list, maybe empty', key({ limited: true, bucket_access: null }), false],
  ['response', schema('AccessKeyList'), 'key lists use the pagination envelope and omit secrets', { data: [key()], page: 1, pages: 1, results: 1 }, true],
  ['response', schema('AccessKeyList'), 'key lists use the pagination envelope and omit secrets', { data: [{ ...key(), secret_key: 'x' }], page: 1, pages: 1, results: 1 }, false],

  // Transfer
  ['response', schema('ObjectStorageTransfer'), 'used is a non-negative number of bytes', { used: 12956600198 }, true],
  ['response', schema('ObjectStorageTransfer'), 'used is a non-negative number of bytes', { used: -1 }, false],
  ['response', schema('ObjectStorageTransfer'), 'used is a non-negative number of bytes', { used: 1.5 }, false],
  ['response', schema('ObjectStorageTransfer'), 'used is required', {}, false],
];

describeSchemaRules('Object Storage rules held by the schemas', cases);

// What a parameter's schema cannot say: whether it must be sent, and which list parameters an
// operation takes. Each row is checked both ways by its counterpart.
describe('Object Storage parameters', () => {
  it.each([
    [`${bucketPath}/object-acl`, 'get', 'name', true],
    [`${bucketPath}/object-list`, 'get', 'marker', false],
    [`${bucketPath}/object-list`, 'get', 'delimiter', false],
    [`${bucketPath}/object-list`, 'get', 'prefix', false],
    [`${bucketPath}/object-list`, 'get', 'page_size', false],
  ])('%s %s: "%s" required is %s', (apiPath, method, name, required) => {
    expect(Boolean(parameterOf(apiPath, method, name).parameter.required)).toBe(required);
  });

  it('object-list defaults page_size to 100 and takes no page (it is walked with markers)', () => {
    const op = `${bucketPath}/object-list`;
    expect(pointerGet(bundle, parameter(op, 'get', 'page_size')).default).toBe(100);
    expect(() => parameterOf(op, 'get', 'page')).toThrow(/no parameter "page"/);
  });

  it.each([
    ['/object-storage/buckets'],
    ['/object-storage/buckets/{clusterId}'],
    ['/object-storage/clusters'],
    ['/object-storage/keys'],
  ])('the paginated list %s takes page and page_size', (apiPath) => {
    expect(parameterOf(apiPath, 'get', 'page').parameter.in).toBe('query');
    expect(parameterOf(apiPath, 'get', 'page_size').parameter.in).toBe('query');
  });
});
