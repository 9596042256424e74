// What the contract run (test/core/contract.test.ts) needs for Object Storage.
//
// The spec's examples read and change the ACL of `photos/cat.jpg` in `example-bucket`, the bucket
// the kit creates (the create of an existing own bucket answers it). Objects are written only
// through the pre-signed URLs the server issues, outside the spec's operations, so the kit
// cannot write one: `prepare` does. No operation of the spec deletes an object either, so that
// bucket stays non-empty and its delete is refused, as it must be.
import type { Api } from '../support/harness.js';
import { createBucket, putObject } from './support.js';

export async function prepare(api: Api): Promise<void> {
  await createBucket(api, 'example-bucket', 'us-east-1');
  await putObject(api, 'example-bucket', 'photos/cat.jpg', 'a cat', 'image/jpeg', 'us-east-1');
}

export const waivers = {
  deleteBucket: 'the bucket the kit\'s links name holds photos/cat.jpg, which the object ACL examples need; a non-empty bucket cannot be deleted, and no operation of the spec deletes an object',
};
