// Type tests of the named exports (compiled by `vitest run` in typecheck mode): exact shapes of
// the areas already specified. The generic checks over every schema are in generated.test.mjs.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  components, EmptyObject, ErrorDetail, ErrorResponse, Image, ImageCreateRequest, ImageUpdateRequest, ImageUploadResponse,
  operations, paths, Region, RegionList, Tag, TagCreateRequest, TaggedObject, Volume, VolumeCreateRequest, VolumeList,
  VolumeUpdateRequest,
} from '@cloudapi/types';

/** Keys whose property carries the `readonly` modifier. */
type ReadonlyKeys<T> = {
  [K in keyof T]-?: (<X>() => X extends { [Q in K]: T[K] } ? 1 : 2) extends (<X>() => X extends { readonly [Q in K]: T[K] } ? 1 : 2) ? K : never;
}[keyof T];
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

describe('named exports', () => {
  it('are the component schemas', () => {
    expectTypeOf<Volume>().toEqualTypeOf<components['schemas']['Volume']>();
    expectTypeOf<VolumeCreateRequest>().toEqualTypeOf<components['schemas']['VolumeCreateRequest']>();
    expectTypeOf<ErrorResponse>().toEqualTypeOf<components['schemas']['ErrorResponse']>();
  });
});

describe('responses', () => {
  it('mark server-set fields readonly and list every always-present field as required', () => {
    expectTypeOf<ReadonlyKeys<Volume>>().toEqualTypeOf<'id' | 'status' | 'compute_label' | 'filesystem_path' | 'created' | 'updated'>();
    expectTypeOf<RequiredKeys<Volume>>().toEqualTypeOf<keyof Volume>();
    expectTypeOf<Pick<Volume, 'id'>>().toEqualTypeOf<{ readonly id: number }>();
  });

  it('type nullable fields with null and enums as unions of their values', () => {
    expectTypeOf<Volume['compute_id']>().toEqualTypeOf<number | null>();
    expectTypeOf<Volume['status']>().toEqualTypeOf<'creating' | 'active' | 'resizing' | 'contact_support'>();
    expectTypeOf<Image['status']>().toEqualTypeOf<'creating' | 'pending_upload' | 'available' | null>();
    expectTypeOf<Image['eol']>().toEqualTypeOf<string | null>();
  });

  it('narrow the pagination envelope to the listed resource', () => {
    expectTypeOf<VolumeList['data']>().toEqualTypeOf<Volume[]>();
    expectTypeOf<RegionList['data'][number]>().toEqualTypeOf<Region>();
    expectTypeOf<VolumeList>().toMatchTypeOf<{ page: number; pages: number; results: number }>();
  });

  it('discriminate tagged objects by type', () => {
    const entry = {} as TaggedObject;
    if (entry.type === 'volume') expectTypeOf(entry.data).toEqualTypeOf<Volume>();
    expectTypeOf<TaggedObject['type']>().toEqualTypeOf<'compute' | 'domain' | 'volume' | 'balancer'>();
  });

  it('give errors a required reason and an optional field', () => {
    expectTypeOf<ErrorResponse['errors']>().toEqualTypeOf<ErrorDetail[]>();
    expectTypeOf<ErrorDetail>().toEqualTypeOf<{ field?: string; reason: string }>();
    expectTypeOf<EmptyObject>().toEqualTypeOf<Record<string, never>>();
  });

  it('type the upload answer', () => {
    expectTypeOf<ImageUploadResponse>().toEqualTypeOf<{ image: Image; upload_to: string }>();
  });
});

describe('requests', () => {
  it('keep create and update bodies distinct, with their own required fields', () => {
    expectTypeOf<VolumeCreateRequest>().not.toEqualTypeOf<VolumeUpdateRequest>();
    expectTypeOf<RequiredKeys<VolumeCreateRequest>>().toEqualTypeOf<'label'>();
    expectTypeOf<RequiredKeys<VolumeUpdateRequest>>().toEqualTypeOf<never>();
    expectTypeOf<RequiredKeys<TagCreateRequest>>().toEqualTypeOf<'label'>();
  });

  it('leave a field with a default optional (null means not given, as the official client sends it)', () => {
    expectTypeOf<VolumeCreateRequest['size']>().toEqualTypeOf<number | null | undefined>();
    // A required field takes no null.
    expectTypeOf<VolumeCreateRequest['label']>().toEqualTypeOf<string>();
  });

  it('hold no read-only field of the resource they create', () => {
    expectTypeOf<Extract<keyof VolumeCreateRequest, ReadonlyKeys<Volume>>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof VolumeUpdateRequest, ReadonlyKeys<Volume>>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof ImageCreateRequest, ReadonlyKeys<Image>>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof TagCreateRequest, ReadonlyKeys<Tag>>>().toEqualTypeOf<never>();
  });

  it('reject a read-only field, a wrong enum value and a missing required field', () => {
    // @ts-expect-error `id` is read-only: not part of the create body
    const withId: VolumeCreateRequest = { label: 'data', region: 'us-east', id: 1 };
    // @ts-expect-error `label` is required
    const withoutLabel: VolumeCreateRequest = { region: 'us-east' };
    // @ts-expect-error `bogus` is not an image status
    const badStatus: ImageUpdateRequest = { status: 'bogus' };
    // Update bodies clear a description with null; create bodies read null as "not given".
    const clear: ImageUpdateRequest = { description: null };
    const unset: ImageCreateRequest = { disk_id: 1, description: null };
    // @ts-expect-error a description is text
    const create: ImageCreateRequest = { disk_id: 1, description: 42 };
    // @ts-expect-error a required field takes no null
    const nullDisk: ImageCreateRequest = { disk_id: null };
    expectTypeOf([withId, withoutLabel, badStatus, clear, unset, create, nullDisk]).toBeArray();
  });
});

describe('paths and operations', () => {
  it('type each operation by path and by operationId alike', () => {
    expectTypeOf<paths['/volumes/{volumeId}']['get']>().toEqualTypeOf<operations['getVolume']>();
    expectTypeOf<operations['getVolume']['parameters']['path']>().toEqualTypeOf<{ volumeId: number }>();
    expectTypeOf<operations['getImage']['parameters']['path']['imageId']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<operations['listVolumes']['parameters']['query']>>().toEqualTypeOf<{ page?: number; page_size?: number }>();
  });
});
