// Three request bodies that the service's own JavaScript client (@linode/api-v4) always builds,
// in our names, sent to the mock: each must get its 2xx. The client adds `ticket_id` to every
// reply, keeps `port` beside the `address` it joined it into, and requires `nodes` on every
// config create; a closed request body that refused them made the client unusable for those
// operations (spec/DECISIONS.md section 6).
import { describe, expect, inject, it } from 'vitest';

const headers = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };
// The run's example mock (test/support/example-mock.mjs).
const mock = inject('exampleMock');

async function send(method, path, body) {
  const response = await fetch(`${mock.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

// What the client's node helpers send: the port joined into `address`, and kept as `port`.
const vendorNode = { label: 'web-1', address: '192.168.210.120:80', port: 80, weight: 100, mode: 'accept' };

describe('bodies the vendor JavaScript client builds', () => {
  it('a ticket reply carrying ticket_id', async () => {
    const { status, body } = await send('POST', '/support/tickets/11223344/replies', { ticket_id: 11223344, description: 'The disk is back online, thank you.' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toHaveProperty('description');
  });

  it('a balancer node with port beside address, on create and on update', async () => {
    const created = await send('POST', '/balancers/12345/configs/4567/nodes', vendorNode);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const updated = await send('PUT', '/balancers/12345/configs/4567/nodes/54321', { ...vendorNode, weight: 50 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });

  it('a balancer config create carrying its nodes', async () => {
    const config = {
      port: 80, protocol: 'http', algorithm: 'roundrobin', stickiness: 'none', check: 'connection',
      check_interval: 5, check_timeout: 3, check_attempts: 2, check_passive: true, cipher_suite: 'recommended',
      nodes: [vendorNode],
    };
    const { status, body } = await send('POST', '/balancers/12345/configs', config);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toHaveProperty('port');
  });

  it('the mock still refuses a field neither the spec nor the client knows (the check can fail)', async () => {
    const { status } = await send('POST', '/support/tickets/11223344/replies', { ticket_id: 11223344, description: 'Hello.', priority: 'high' });
    expect(status).toBe(400);
  });
});
