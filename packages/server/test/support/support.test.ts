// Support: one test per rule of the requirements (and of the server's decisions) for tickets,
// replies and attachments.
// The ticket's one id attribute is checked against a stand-in Compute directory with two
// instances and the real Volumes area.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../src/areas/support/attachments.js';
import { testClock } from '../harness/harness.js';
import type { Api, TestServer } from '../harness/harness.js';
import { ok, startServerWithInstances } from '../managed/fake-computes.js';

let t: TestServer;
const clock = testClock(0);

beforeAll(async () => {
  t = await startServerWithInstances('support', clock);
});
afterAll(() => t?.close());

const full = () => t.as('full');
const open = (body: object = {}) => ok(full().post('/support/tickets', { summary: 'Help', description: 'Something is wrong.', ...body }));

/** A multipart/form-data body with one file part. */
async function upload(api: Api, ticketId: number, fileName: string, content: string | Buffer = 'hello', partName = 'file') {
  const form = new FormData();
  form.append(partName, new Blob([content]), fileName);
  const response = new Response(form);
  const raw = Buffer.from(await response.arrayBuffer());
  return api.request('POST', `/support/tickets/${ticketId}/attachments`, { raw, headers: { 'content-type': response.headers.get('content-type')! } });
}

describe('support tickets', () => {
  it('a ticket is opened with its summary and description, by the user, with no attachments', async () => {
    const ticket = await open({ summary: 'Instance does not boot', description: 'It stops at the kernel prompt.' });
    expect(ticket).toMatchObject({
      summary: 'Instance does not boot', description: 'It stops at the kernel prompt.', closed: null, updated_by: null,
      opened_by: expect.stringMatching(/^user-/), avatar_id: expect.stringMatching(/^[0-9a-f]{32}$/), attachments: [], entity: null,
    });
    expect(await ok(full().get(`/support/tickets/${ticket.id}`))).toEqual(ticket);
  });

  it('a new ticket is new and not closable until support staff take it up, then open and closable', async () => {
    clock.transitionMs = 60_000;
    let ticket: any;
    try {
      ticket = await open();
    } finally {
      clock.transitionMs = 0;
    }
    expect(ticket).toMatchObject({ status: 'new', closable: false });
    const early = await full().post(`/support/tickets/${ticket.id}/close`);
    expect(early.status).toBe(400);
    expect(early.body.errors[0].reason).toMatch(/not closable while it is new/);
    clock.advance(60_001);
    expect(await ok(full().get(`/support/tickets/${ticket.id}`))).toMatchObject({ status: 'open', closable: true });
  });

  it('close answers {} and the ticket is closed, with the time it was closed', async () => {
    const ticket = await open();
    expect(await ok(full().post(`/support/tickets/${ticket.id}/close`))).toEqual({});
    const closed = await ok(full().get(`/support/tickets/${ticket.id}`));
    expect(closed).toMatchObject({ status: 'closed', closable: false, closed: expect.any(String), updated_by: ticket.opened_by });
  });

  it('a closed ticket stays closed: it takes no second close, but still takes replies and attachments', async () => {
    const ticket = await open();
    await ok(full().post(`/support/tickets/${ticket.id}/replies`, { description: 'Before closing.' }));
    await ok(full().post(`/support/tickets/${ticket.id}/close`));
    const again = await full().post(`/support/tickets/${ticket.id}/close`);
    expect(again.status).toBe(400);
    expect(again.body.errors[0].reason).toMatch(/already closed/);
    await ok(full().post(`/support/tickets/${ticket.id}/replies`, { description: 'After closing.' }));
    expect((await upload(full(), ticket.id, 'late.txt')).status).toBe(200);
    expect((await ok(full().get(`/support/tickets/${ticket.id}/replies`))).data.map((r: any) => r.description)).toEqual(['Before closing.', 'After closing.']);
    expect(await ok(full().get(`/support/tickets/${ticket.id}`))).toMatchObject({ status: 'closed', closable: false, attachments: ['late.txt'] });
  });

  it('the ticket list shows open tickets first', async () => {
    const a = await open({ summary: 'first' });
    const b = await open({ summary: 'second' });
    const c = await open({ summary: 'third' });
    await ok(full().post(`/support/tickets/${c.id}/close`));
    const list = await ok(full().get('/support/tickets'));
    const statuses = list.data.map((x: any) => x.status);
    const firstClosed = statuses.indexOf('closed');
    expect(firstClosed).toBeGreaterThan(0);
    expect(statuses.slice(firstClosed).every((s: string) => s === 'closed')).toBe(true);
    const ids = list.data.map((x: any) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(c.id));
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(c.id));
  });

  it('a ticket is about at most one object: two id attributes are refused', async () => {
    const answer = await full().post('/support/tickets', { summary: 'x', description: 'y', compute_id: 123, volume_id: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field).join(' ')).toMatch(/compute_id|volume_id/);
  });

  it('the object a ticket is about must exist, and becomes its entity', async () => {
    const onInstance = await open({ compute_id: 123 });
    expect(onInstance.entity).toEqual({ id: 123, label: 'web-1', type: 'compute', url: '/v4/compute/instances/123' });
    const volume = await ok(full().post('/volumes', { label: 'ticket-vol', region: 'us-east' }));
    expect((await open({ volume_id: volume.id })).entity).toEqual({ id: volume.id, label: 'ticket-vol', type: 'volume', url: `/v4/volumes/${volume.id}` });
    for (const [field, id] of [['compute_id', 999], ['volume_id', 999999], ['domain_id', 5], ['balancer_id', 5]] as const) {
      const answer = await full().post('/support/tickets', { summary: 'x', description: 'y', [field]: id });
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors[0].field).toBe(field);
    }
  });

  it('a ticket can only be about an object the user may read', async () => {
    const others = await ok(full().post('/volumes', { label: 'not-theirs', region: 'us-east' }));
    const refused = await t.as('restricted').post('/support/tickets', { summary: 'x', description: 'y', volume_id: others.id });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].reason).toMatch(new RegExp(`volume ${others.id}`));
    const own = await ok(t.as('adder').post('/volumes', { label: 'theirs', region: 'us-east' }));
    expect((await ok(t.as('adder').post('/support/tickets', { summary: 'x', description: 'y', volume_id: own.id }))).entity.id).toBe(own.id);
  });

  it('a kubecluster or metrics client id is taken as given: no operation of this API serves them', async () => {
    expect((await open({ kubecluster_id: 77 })).entity).toEqual({ id: 77, label: 'kubecluster 77', type: 'kubecluster', url: '/v4/kubecluster/clusters/77' });
    expect((await open({ metrics_client_id: 8 })).entity).toMatchObject({ id: 8, type: 'metrics_client' });
  });

  it('region is only for a VLAN ticket, and must exist', async () => {
    const noVlan = await full().post('/support/tickets', { summary: 'x', description: 'y', region: 'us-east' });
    expect(noVlan.status).toBe(400);
    const unknown = await full().post('/support/tickets', { summary: 'x', description: 'y', vlan: 'backend', region: 'mars-north' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('region');
    expect(await open({ vlan: 'backend', region: 'us-east' })).toMatchObject({ entity: null });
  });

  it('replies are added to a ticket by the user and listed in order', async () => {
    const ticket = await open();
    const first = await ok(full().post(`/support/tickets/${ticket.id}/replies`, { description: 'One.', ticket_id: ticket.id }));
    expect(first).toMatchObject({ description: 'One.', from_provider: false, created_by: ticket.opened_by, avatar_id: ticket.avatar_id });
    await ok(full().post(`/support/tickets/${ticket.id}/replies`, { description: 'Two.' }));
    const replies = await ok(full().get(`/support/tickets/${ticket.id}/replies`));
    expect(replies).toMatchObject({ results: 2, data: [{ description: 'One.' }, { description: 'Two.' }] });
    expect((await ok(full().get(`/support/tickets/${ticket.id}`))).updated_by).toBe(ticket.opened_by);
    expect((await full().get('/support/tickets/999999/replies')).status).toBe(404);
    expect((await full().post('/support/tickets/999999/replies', { description: 'x' })).status).toBe(404);
  });
});

describe('support attachments', () => {
  it('an attachment is stored and its file name listed on the ticket', async () => {
    const ticket = await open();
    const answer = await upload(full(), ticket.id, 'boot-console.PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({});
    expect((await ok(full().get(`/support/tickets/${ticket.id}`))).attachments).toEqual(['boot-console.PNG']);
    const stored = await t.server.store.db.selectFrom('ticket_attachments').selectAll().where('ticket_id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.data)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  });

  it('only the accepted extensions are taken', async () => {
    const ticket = await open();
    for (const name of ['a.gif', 'a.jpg', 'a.jpeg', 'a.pjpg', 'a.pjpeg', 'a.tif', 'a.tiff', 'a.png', 'a.pdf', 'a.txt']) {
      expect((await upload(full(), ticket.id, name)).status, name).toBe(200);
    }
    for (const name of ['a.exe', 'a.txt.sh', 'png', 'a.docx']) {
      const refused = await upload(full(), ticket.id, name);
      expect(refused.status, name).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'file', reason: expect.stringMatching(/must end in one of/) });
    }
    expect((await ok(full().get(`/support/tickets/${ticket.id}`))).attachments).toHaveLength(10);
  });

  it(`an attachment over ${MAX_ATTACHMENT_BYTES} bytes is refused with 413`, async () => {
    const ticket = await open();
    const big = await upload(full(), ticket.id, 'big.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61));
    expect(big.status).toBe(413);
    expect(big.body.errors[0]).toMatchObject({ field: 'file', reason: expect.stringMatching(String(MAX_ATTACHMENT_BYTES)) });
    const announced = await upload(full(), ticket.id, 'bigger.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES + 256 * 1024, 0x61));
    expect(announced.status).toBe(413);
    expect((await upload(full(), ticket.id, 'fits.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES, 0x61))).status).toBe(200);
    expect((await ok(full().get(`/support/tickets/${ticket.id}`))).attachments).toEqual(['fits.txt']);
  });

  it('the file must come in the part named file, as a multipart/form-data body', async () => {
    const ticket = await open();
    const wrongPart = await upload(full(), ticket.id, 'a.txt', 'x', 'document');
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body.errors.map((e: any) => e.field)).toContain('file');
    const json = await full().post(`/support/tickets/${ticket.id}/attachments`, { file: 'a.txt' });
    expect(json.status).toBe(400);
    expect(json.body.errors[0].reason).toMatch(/sent as application\/json, which this operation does not take: send multipart\/form-data/);
    const broken = await full().request('POST', `/support/tickets/${ticket.id}/attachments`, { raw: 'not multipart', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    expect(broken.status).toBe(400);
    expect((await upload(full(), 999999, 'a.txt')).status).toBe(404);
  });
});
