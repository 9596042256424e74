// The Support rules of the requirements that JSON Schema can hold: for each rule, a value the
// schema must accept and one it must reject (the form of schema-rules.test.mjs).
import { describeSchemaRules, parameter, schema, text, views } from './schema-rules-runner.mjs';

const open = { summary: 'Instance web-1 does not boot', description: 'It stops at the kernel prompt.' };
const idAttributes = ['domain_id', 'compute_id', 'kubecluster_id', 'metrics_client_id', 'balancer_id', 'volume_id'];
const pairs = idAttributes.flatMap((a, i) => idAttributes.slice(i + 1).map((b) => [a, b]));

// [view, pointer, rule, value, valid?]
const cases = [
  // Path parameter
  ['request', parameter('SupportTicketId'), 'ticket ids are integers', 11223, true],
  ['request', parameter('SupportTicketId'), 'ticket ids are integers', 'abc', false],

  // Open a ticket
  ['request', schema('SupportTicketOpenRequest'), 'summary and description are required', open, true],
  ['request', schema('SupportTicketOpenRequest'), 'summary and description are required', { summary: open.summary }, false],
  ['request', schema('SupportTicketOpenRequest'), 'summary and description are required', { description: open.description }, false],
  ['request', schema('SupportTicketOpenRequest'), 'summary is 1..64', { ...open, summary: text(64) }, true],
  ['request', schema('SupportTicketOpenRequest'), 'summary is 1..64', { ...open, summary: '' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'summary is 1..64', { ...open, summary: text(65) }, false],
  ['request', schema('SupportTicketOpenRequest'), 'description is 1..65000', { ...open, description: text(65000) }, true],
  ['request', schema('SupportTicketOpenRequest'), 'description is 1..65000', { ...open, description: '' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'description is 1..65000', { ...open, description: text(65001) }, false],
  ...idAttributes.map((name) => ['request', schema('SupportTicketOpenRequest'), 'one id attribute may be set', { ...open, [name]: 123 }, true]),
  ...pairs.map(([a, b]) => ['request', schema('SupportTicketOpenRequest'), `at most one id attribute (${a} with ${b})`, { ...open, [a]: 1, [b]: 2 }, false]),
  ['request', schema('SupportTicketOpenRequest'), 'id attributes are integers', { ...open, compute_id: 'web-1' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'managed_issue is a boolean', { ...open, managed_issue: true, compute_id: 123 }, true],
  ['request', schema('SupportTicketOpenRequest'), 'managed_issue is a boolean', { ...open, managed_issue: 'yes' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'region is only for a VLAN ticket', { ...open, vlan: 'backend-vlan', region: 'us-east' }, true],
  ['request', schema('SupportTicketOpenRequest'), 'region is only for a VLAN ticket', { ...open, vlan: 'backend-vlan' }, true],
  ['request', schema('SupportTicketOpenRequest'), 'region is only for a VLAN ticket', { ...open, region: 'us-east' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'response fields cannot be sent', { ...open, status: 'new' }, false],
  ['request', schema('SupportTicketOpenRequest'), 'response fields cannot be sent', { ...open, attachments: [] }, false],

  // Support Ticket
  ['response', schema('SupportTicket'), 'status is closed, new or open', ticket(), true],
  ['response', schema('SupportTicket'), 'status is closed, new or open', { ...ticket(), status: 'pending' }, false],
  ['response', schema('SupportTicket'), 'closed is a timestamp or null', { ...ticket(), status: 'closed', closable: false, closed: '2018-01-05T08:00:00' }, true],
  ['response', schema('SupportTicket'), 'closed is a timestamp or null', { ...ticket(), closed: '2018-01-05' }, false],
  ['response', schema('SupportTicket'), 'opened and updated are timestamps', { ...ticket(), opened: null }, false],
  ['response', schema('SupportTicket'), 'updated_by may be null', { ...ticket(), updated_by: null }, true],
  ['response', schema('SupportTicket'), 'opened_by is not null', { ...ticket(), opened_by: null }, false],
  ['response', schema('SupportTicket'), 'closable is a boolean', { ...ticket(), closable: 'yes' }, false],
  ['response', schema('SupportTicket'), 'attachments are file names', { ...ticket(), attachments: ['boot-console.png'] }, true],
  ['response', schema('SupportTicket'), 'attachments are file names', { ...ticket(), attachments: [{ name: 'boot-console.png' }] }, false],
  ['response', schema('SupportTicket'), 'entity is {id, label, type, url} or null', { ...ticket(), entity: null }, true],
  ['response', schema('SupportTicket'), 'entity is {id, label, type, url} or null', { ...ticket(), entity: { id: 123, label: 'web-1' } }, false],
  ['response', schema('SupportTicket'), 'summary is 1..64', { ...ticket(), summary: text(65) }, false],
  ['request', schema('SupportTicket'), 'everything but summary and description is read-only', ticket(), false],
  ['request', schema('SupportTicket'), 'everything but summary and description is read-only', open, true],
  ['response', schema('SupportTicket'), 'every field is present', (({ avatar_id, ...rest }) => rest)(ticket()), false],

  // Attachments
  ['request', schema('TicketAttachmentUploadRequest'), 'the form has a file part named file', { file: '(binary)' }, true],
  ['request', schema('TicketAttachmentUploadRequest'), 'the form has a file part named file', {}, false],
  ['request', schema('TicketAttachmentUploadRequest'), 'the form has a file part named file', { file: '(binary)', name: 'x.png' }, false],

  // Ticket Reply
  ['request', schema('TicketReplyCreateRequest'), 'description is required, 1..65535', { description: text(65535) }, true],
  ['request', schema('TicketReplyCreateRequest'), 'description is required, 1..65535', {}, false],
  ['request', schema('TicketReplyCreateRequest'), 'description is required, 1..65535', { description: '' }, false],
  ['request', schema('TicketReplyCreateRequest'), 'description is required, 1..65535', { description: text(65536) }, false],
  ['request', schema('TicketReplyCreateRequest'), 'response fields cannot be sent', { description: 'Thanks.', from_provider: true }, false],
  ['request', schema('TicketReply'), 'id, created, created_by, from_provider and avatar_id are read-only', reply(), false],
  ['request', schema('TicketReply'), 'id, created, created_by, from_provider and avatar_id are read-only', { description: 'Thanks.' }, true],
  ['response', schema('TicketReply'), 'a reply has id, created, created_by, description, from_provider, avatar_id', reply(), true],
  ['response', schema('TicketReply'), 'a reply has id, created, created_by, description, from_provider, avatar_id', (({ from_provider, ...rest }) => rest)(reply()), false],
  ['response', schema('TicketReply'), 'from_provider is a boolean', { ...reply(), from_provider: 'no' }, false],
];

function ticket() {
  return {
    id: 11224, summary: 'Instance web-1 does not boot', description: 'It stops at the kernel prompt.', status: 'open', closable: true,
    opened: '2018-01-04T09:00:00', closed: null, updated: '2018-01-04T10:30:00', opened_by: 'alice', updated_by: 'provider-support',
    avatar_id: '0b4d8e2f', attachments: [], entity: { id: 123, label: 'web-1', type: 'compute', url: '/v4/compute/instances/123' },
  };
}

function reply() {
  return { id: 22334, created: '2018-01-04T11:02:00', created_by: 'alice', description: 'Thanks.', from_provider: false, avatar_id: '0b4d8e2f' };
}

describeSchemaRules('Support rules held by the schemas', cases);
