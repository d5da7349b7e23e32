/**
 * The group routes on the simulator: real responses validated against the OpenAPI document,
 * PERMISSION_DENIED as 403 problem+json, client addressing and tokens, and group events over SSE.
 */
import { expect } from 'chai';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  CONTACT_ID,
  SCOPED_TOKEN,
  readEvents,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

const OTHER_ID = '15550000002@c.us';
const DAVE = '15550004444@c.us';
const GROUP = '120363000000000060@g.us';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

describe('REST: groups', () => {
  let fx: RestFixture;
  let doc: Doc;

  function conforms(method: string, template: string, res: TestResponse, status: number): void {
    expect(res.status, res.text).to.equal(status);
    const response = documentedResponse(doc, method, template, status);
    expect(response, `${method} ${template} documents ${status}`).to.not.equal(undefined);
    if (status === 204) {
      expect(res.text).to.equal('');
      return;
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const media = response?.content?.[type];
    expect(media, `${method} ${template} ${status} documents ${type}`).to.not.equal(undefined);
    expect(validateJson(media!.schema as Record<string, unknown>, res.json, doc)).to.deep.equal([]);
  }

  beforeEach(async () => {
    fx = await restFixture();
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
    fx.sdk.simulator.phone(DAVE, { pushname: 'Dave' });
    await fx.link('bot');
  });

  afterEach(async () => {
    await fx.close();
  });

  it('creates, reads, changes and manages a group; every answer matches the OpenAPI document', async () => {
    await fx.link('other');
    const created = await fx.request('POST', '/api/v1/groups', {
      json: { subject: 'Ops', participants: [CONTACT_ID, '19990009999'] },
    });
    conforms('post', '/api/v1/groups', created, 201);
    const { id, participants } = created.json as { id: string; participants: unknown[] };
    expect(created.headers.get('location')).to.equal(`/api/v1/groups/${encodeURIComponent(id)}`);
    expect(participants).to.deep.equal([
      { id: CONTACT_ID, outcome: 'added' },
      {
        id: '19990009999@c.us',
        outcome: 'refused',
        reason: 'not_registered',
        message: 'not on WhatsApp',
      },
    ]);
    const group = `/api/v1/groups/${id}`;
    const read = await fx.request('GET', group);
    conforms('get', '/api/v1/groups/{id}', read, 200);
    expect(read.json).to.deep.include({ id, subject: 'Ops', owner: BOT_ID });

    const added = await fx.request('POST', `${group}/participants`, {
      json: { participants: [OTHER_ID, CONTACT_ID] },
    });
    conforms('post', '/api/v1/groups/{id}/participants', added, 200);
    expect(added.json).to.deep.equal({
      groupId: id,
      results: [
        { id: OTHER_ID, outcome: 'added' },
        {
          id: CONTACT_ID,
          outcome: 'refused',
          reason: 'already_member',
          message: 'already a member',
        },
      ],
    });
    const promoted = await fx.request('POST', `${group}/admins`, {
      json: { participants: [OTHER_ID] },
    });
    conforms('post', '/api/v1/groups/{id}/admins', promoted, 200);
    expect((promoted.json as { results: unknown[] }).results).to.deep.equal([
      { id: OTHER_ID, outcome: 'promoted' },
    ]);
    const demoted = await fx.request('DELETE', `${group}/admins`, {
      json: { participants: [OTHER_ID] },
    });
    conforms('delete', '/api/v1/groups/{id}/admins', demoted, 200);
    const patched = await fx.request('PATCH', group, {
      json: { subject: 'Ops team', description: 'On call', settings: { infoAdminsOnly: true } },
    });
    conforms('patch', '/api/v1/groups/{id}', patched, 200);
    expect(patched.json).to.deep.include({
      subject: 'Ops team',
      description: 'On call',
      settings: { messagesAdminsOnly: false, infoAdminsOnly: true },
    });

    const invite = await fx.request('GET', `${group}/invite`);
    conforms('get', '/api/v1/groups/{id}/invite', invite, 200);
    const { code, link } = invite.json as { code: string; link: string };
    expect(link).to.equal(`https://chat.whatsapp.com/${code}`);
    const revoked = await fx.request('DELETE', `${group}/invite`);
    conforms('delete', '/api/v1/groups/{id}/invite', revoked, 200);
    const fresh = (revoked.json as { code: string }).code;
    expect(fresh).to.not.equal(code);

    const removed = await fx.request('DELETE', `${group}/participants`, {
      json: { participants: [OTHER_ID] },
    });
    conforms('delete', '/api/v1/groups/{id}/participants', removed, 200);
    const stale = await fx.request('POST', '/api/v1/clients/other/groups/join', { json: { code } });
    conforms('post', '/api/v1/clients/{name}/groups/join', stale, 404);
    expect(stale.json).to.deep.include({ code: 'GROUP_INVITE_INVALID' });
    const joined = await fx.request('POST', '/api/v1/clients/other/groups/join', {
      json: { code: link.replace(code, fresh) },
    });
    conforms('post', '/api/v1/clients/{name}/groups/join', joined, 200);
    expect(joined.json).to.deep.equal({ groupId: id });
    const left = await fx.request('POST', `/api/v1/clients/other/groups/${id}/leave`);
    conforms('post', '/api/v1/clients/{name}/groups/{id}/leave', left, 204);
    const gone = await fx.request('GET', `/api/v1/clients/other/groups/${id}`);
    conforms('get', '/api/v1/clients/{name}/groups/{id}', gone, 403);
  });

  it('PERMISSION_DENIED is a 403 problem saying what was missing', async () => {
    await fx.link('other');
    fx.sdk.simulator.group({ id: GROUP, members: [BOT_ID, OTHER_ID], admins: [BOT_ID] });
    const res = await fx.request('POST', `/api/v1/clients/other/groups/${GROUP}/participants`, {
      json: { participants: [DAVE] },
    });
    conforms('post', '/api/v1/clients/{name}/groups/{id}/participants', res, 403);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(res.json).to.deep.include({
      code: 'PERMISSION_DENIED',
      status: 403,
      details: { groupId: GROUP, action: 'add_participants', missing: 'admin' },
    });
    expect(res.text).to.not.match(/at .*\.ts:\d+/);
    const settings = await fx.request(
      'PATCH',
      `/api/v1/clients/other/groups/${GROUP.slice(0, -5)}`,
      {
        json: { settings: { messagesAdminsOnly: true } },
      },
    );
    conforms('patch', '/api/v1/clients/{name}/groups/{id}', settings, 403);
    expect(settings.json).to.deep.include({
      details: { groupId: GROUP, action: 'set_settings', missing: 'admin' },
    });
  });

  it('bad ids, unknown groups, clients not ready, bodies and tokens get their codes', async () => {
    const cases: Array<[string, string, string, unknown, number, string]> = [
      [
        'get',
        `/api/v1/groups/${CONTACT_ID}`,
        '/api/v1/groups/{id}',
        undefined,
        400,
        'INVALID_CHAT_ID',
      ],
      [
        'get',
        '/api/v1/groups/120363000000000099',
        '/api/v1/groups/{id}',
        undefined,
        404,
        'CHAT_NOT_FOUND',
      ],
      ['post', '/api/v1/groups', '/api/v1/groups', { subject: '' }, 400, 'VALIDATION_FAILED'],
      ['patch', `/api/v1/groups/${GROUP}`, '/api/v1/groups/{id}', {}, 400, 'VALIDATION_FAILED'],
      [
        'post',
        `/api/v1/groups/${GROUP}/participants`,
        '/api/v1/groups/{id}/participants',
        { participants: ['x'] },
        400,
        'INVALID_CHAT_ID',
      ],
      [
        'post',
        '/api/v1/clients/other/groups',
        '/api/v1/clients/{name}/groups',
        { subject: 'x' },
        409,
        'CLIENT_NOT_READY',
      ],
      [
        'get',
        `/api/v1/clients/nobody/groups/${GROUP}`,
        '/api/v1/clients/{name}/groups/{id}',
        undefined,
        404,
        'CLIENT_NOT_FOUND',
      ], // the client is named in the path, never by ?client= (the route takes no query)
      [
        'get',
        `/api/v1/groups/${GROUP}?client=other`,
        '/api/v1/groups/{id}',
        undefined,
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [method, route, template, json, status, code] of cases) {
      const res = await fx.request(method.toUpperCase(), route, json === undefined ? {} : { json });
      conforms(method, template, res, status);
      expect(res.json, `${method} ${route}`).to.deep.include({ code });
    }
    const anonymous = await fx.request('GET', `/api/v1/groups/${GROUP}`, { token: null });
    conforms('get', '/api/v1/groups/{id}', anonymous, 401);
    const scoped = await fx.request('GET', `/api/v1/clients/bot/groups/${GROUP}`, {
      token: SCOPED_TOKEN,
    });
    conforms('get', '/api/v1/clients/{name}/groups/{id}', scoped, 403);
    expect(scoped.json).to.deep.include({ code: 'FORBIDDEN' });
  });

  it('streams group.join / group.update / group.leave over SSE', async () => {
    const dave = fx.sdk.simulator.phone(DAVE);
    const { id } = await dave.groups.create('Book club', [BOT_ID]);
    await dave.groups.setSubject(id, 'Book club 2');
    await dave.groups.removeParticipants(id, [BOT_ID]);
    const { events } = await readEvents(
      `${fx.url}/api/v1/events?since=0&types=group.join,group.update,group.leave`,
      { token: ADMIN_TOKEN },
      (seen) => seen.length >= 3,
    );
    expect(events.map((e) => [e.event, e.data.client])).to.deep.equal([
      ['group.join', 'bot'],
      ['group.update', 'bot'],
      ['group.leave', 'bot'],
    ]);
    expect(events[0]?.data.data).to.deep.include({ groupId: id, how: 'added', by: DAVE });
    expect(events[1]?.data.data).to.deep.include({ change: 'subject', subject: 'Book club 2' });
    expect(events[2]?.data.data).to.deep.include({ how: 'removed', participants: [BOT_ID] });
  });
});
