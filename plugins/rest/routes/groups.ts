/**
 * Group routes: `/api/v1/groups/...` acts on the default client, `/api/v1/clients/{name}/groups/...`
 * on a named one (as the client routes do). Each calls the SDK's groups API: management goes to
 * WhatsApp directly and needs the client READY (409 CLIENT_NOT_READY); missing rights are 403
 * PERMISSION_DENIED with `details { groupId, action, missing, setting? }`.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import type { BotClient } from '../../../src/index.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute, type ResponseSpec } from '../route.js';
import { clientNameParam } from '../schemas.js';
import {
  CreateGroupRequest,
  CreatedGroupSchema,
  GroupIdParam,
  GroupInfoSchema,
  GroupJoined,
  InviteCode,
  JoinGroupRequest,
  ParticipantResults,
  ParticipantsRequest,
  UpdateGroupRequest,
} from '../group-schemas.js';

type Params = { name?: string; id?: string };

interface GroupRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** After `<base>/groups`. */
  path: string;
  operationId: string;
  summary: string;
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
  run(client: BotClient, groupId: string, body: never, ctx: Context): Promise<unknown>;
}

const link = (code: string): string => `https://chat.whatsapp.com/${code}`;

const ROUTES: GroupRoute[] = [
  {
    method: 'POST',
    path: '',
    operationId: 'createGroup',
    summary: 'Create a group (this account is its creator); one result per participant',
    body: CreateGroupRequest,
    responses: {
      201: {
        description: 'Created',
        schema: CreatedGroupSchema,
        headers: { Location: 'The group' },
      },
    },
    async run(client, _id, body: z.output<typeof CreateGroupRequest>, ctx) {
      const created = await client.createGroup(body.subject, body.participants);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/groups/${encodeURIComponent(created.id)}`);
      return created;
    },
  },
  {
    method: 'POST',
    path: '/join',
    operationId: 'joinGroup',
    summary: 'Join a group by invite code (or chat.whatsapp.com link)',
    body: JoinGroupRequest,
    responses: { 200: { description: 'Joined (or already a member)', schema: GroupJoined } },
    async run(client, _id, body: z.output<typeof JoinGroupRequest>) {
      return { groupId: await client.joinByInvite(body.code) };
    },
  },
  {
    method: 'GET',
    path: '/{id}',
    operationId: 'getGroup',
    summary: 'A group: subject, description, owner, participants with roles, settings',
    responses: { 200: { description: 'The group', schema: GroupInfoSchema } },
    run: (client, id) => client.getGroup(id),
  },
  {
    method: 'PATCH',
    path: '/{id}',
    operationId: 'updateGroup',
    summary: 'Change subject, description and/or settings; answers the group after the change',
    body: UpdateGroupRequest,
    responses: { 200: { description: 'The group after the change', schema: GroupInfoSchema } },
    async run(client, id, body: z.output<typeof UpdateGroupRequest>) {
      if (body.subject !== undefined) await client.setGroupSubject(id, body.subject);
      if (body.description !== undefined) await client.setGroupDescription(id, body.description);
      if (body.settings !== undefined) await client.setGroupSettings(id, body.settings);
      return client.getGroup(id);
    },
  },
  ...(
    [
      [
        'POST',
        '/participants',
        'addGroupParticipants',
        'Add people (admins only)',
        'addParticipants',
      ],
      [
        'DELETE',
        '/participants',
        'removeGroupParticipants',
        'Remove people (admins only)',
        'removeParticipants',
      ],
      [
        'POST',
        '/admins',
        'promoteGroupParticipants',
        'Make members admins (admins only)',
        'promoteParticipants',
      ],
      [
        'DELETE',
        '/admins',
        'demoteGroupParticipants',
        'Make admins plain members (admins only)',
        'demoteParticipants',
      ],
    ] as const
  ).map(([method, path, operationId, summary, call]): GroupRoute => ({
    method,
    path: `/{id}${path}`,
    operationId,
    summary: `${summary}; one result per person`,
    body: ParticipantsRequest,
    responses: { 200: { description: 'One result per person', schema: ParticipantResults } },
    async run(client, id, body: z.output<typeof ParticipantsRequest>) {
      return { groupId: id, results: await client[call](id, body.participants) };
    },
  })),
  {
    method: 'GET',
    path: '/{id}/invite',
    operationId: 'getGroupInvite',
    summary: 'The invite code and link (admins only)',
    responses: { 200: { description: 'Invite code', schema: InviteCode } },
    async run(client, id) {
      const code = await client.getInviteCode(id);
      return { groupId: id, code, link: link(code) };
    },
  },
  {
    method: 'DELETE',
    path: '/{id}/invite',
    operationId: 'revokeGroupInvite',
    summary: 'Revoke the invite code (admins only); answers the new one',
    responses: { 200: { description: 'The new invite code', schema: InviteCode } },
    async run(client, id) {
      const code = await client.revokeInvite(id);
      return { groupId: id, code, link: link(code) };
    },
  },
  {
    method: 'POST',
    path: '/{id}/leave',
    operationId: 'leaveGroup',
    summary: 'Leave the group',
    responses: { 204: { description: 'Left' } },
    async run(client, id, _body, ctx) {
      await client.leaveGroup(id);
      ctx.status = 204;
      return undefined;
    },
  },
];

export function groupRoutes(rc: RestContext): AnyRoute[] {
  const out: AnyRoute[] = [];
  for (const named of [false, true]) {
    const base = named ? '/api/v1/clients/{name}/groups' : '/api/v1/groups';
    for (const route of ROUTES) {
      const path = `${base}${route.path}`;
      const shape = {
        ...(named ? { name: clientNameParam } : {}),
        ...(path.includes('{id}') ? { id: GroupIdParam } : {}),
      };
      out.push(
        defineRoute({
          method: route.method,
          path,
          operationId: named ? `${route.operationId}OfClient` : route.operationId,
          summary: named ? `${route.summary} (named client)` : route.summary,
          tag: 'groups',
          ...(Object.keys(shape).length > 0 ? { params: z.object(shape).strict() } : {}),
          ...(route.body ? { body: route.body } : {}),
          responses: route.responses,
          errors: [400, 401, 403, 404, 409, 415, 502],
          async handler(ctx, { params, body, principal }) {
            const p = (params ?? {}) as Params;
            const client = resolveClient(rc, principal, p.name);
            ctx.state.client = client.name;
            const result = await route.run(client, p.id ?? '', body as never, ctx);
            if (ctx.status !== 204) ctx.body = result;
          },
        }),
      );
    }
  }
  return out;
}
