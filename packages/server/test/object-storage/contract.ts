// What the contract run (test/core/contract.test.ts) needs for Object Storage: nothing. The spec's
// object-ACL examples name `photos/cat.jpg`, which only a pre-signed URL writes; createObjectUrl
// says so (`x-presigned-url`), so the kit writes that object through a PUT URL before the ACL
// operations, and removes it through a DELETE URL before it deletes the bucket.
export const waivers = {};
