/**
 * Groups (docs/groups.md): creating, reading and managing groups. Direct (READY, not queued).
 * Group ids are `<id>@g.us`; people are phone numbers, `@c.us` or `@lid` ids (INVALID_CHAT_ID
 * otherwise). Missing rights are PERMISSION_DENIED with `details { groupId, action, missing:
 * 'membership' | 'admin', setting? }`; people-changing operations answer one result per person.
 * REST serves each under `/api/v1/groups` and `/api/v1/clients/{name}/groups`.
 */
import { z } from 'zod';
import type { Engine } from '../engines/engine.js';
import type { ParticipantResult } from '../engines/ports/groups.js';
import { PERSON_KINDS } from '../client/chat-id.js';
import { chatIdInput } from './chat-id-schemas.js';
import { defineCapability, type CapabilityHttp } from './define.js';
import {
  CreateGroupRequest,
  CreatedGroupSchema,
  GroupIdParam,
  GroupInfoSchema,
  GroupSettingsSchema,
  InviteCode,
  JoinGroupRequest,
  ParticipantResultSchema,
  ParticipantResults,
  ParticipantsRequest,
  UpdateGroupRequest,
  descriptionInput,
  groupIdInput,
  inviteCodeInput,
  peopleInput,
  settingsInput,
  subjectInput,
} from './group-schemas.js';

const docs = 'docs/groups.md#sdk';
const errors = [400, 401, 403, 404, 409, 415, 502] as const;
const groupInput = z.object({ groupId: groupIdInput }).strict();
const params = z.object({ id: GroupIdParam }).strict();
const link = (code: string): string => `https://chat.whatsapp.com/${code}`;

/** What every group route shares: the tag, the client in the path, the error statuses. */
const route = {
  tag: 'groups',
  client: 'path',
  errors,
} satisfies Partial<CapabilityHttp<never, never, never>>;

/** `{ groupId }` of a route with `{id}`. */
const groupOfPath = ({ params: p }: { params: Record<string, unknown> }) => ({
  groupId: p.id as string,
});

type PeopleMethod =
  'addParticipants' | 'removeParticipants' | 'promoteParticipants' | 'demoteParticipants';

/** add / remove / promote / demote: one engine call per list of people, one result per person. */
function participants(
  method: PeopleMethod,
  summary: string,
  http: { method: 'POST' | 'DELETE'; path: string; operationId: string; summary: string },
) {
  return defineCapability({
    name: `groups.${method}`,
    effect:
      method === 'addParticipants' || method === 'promoteParticipants' ? 'additive' : 'destructive',
    summary,
    docs: 'docs/groups.md#results-per-person',
    mode: 'direct',
    input: z.object({ groupId: groupIdInput, participants: peopleInput(1) }).strict(),
    args: ['groupId', 'participants'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine: Engine, { groupId, participants: people }): Promise<ParticipantResult[]> =>
      engine.ops.groups[method](groupId, people),
    http: {
      ...route,
      method: http.method,
      path: `/groups/{id}${http.path}`,
      operationId: http.operationId,
      summary: `${http.summary}; one result per person`,
      params,
      body: ParticipantsRequest,
      components: { ParticipantsRequest, ParticipantResult: ParticipantResultSchema },
      toInput: ({ params: p, body }) => ({
        groupId: p.id as string,
        participants: body.participants as string[],
      }),
      status: 200,
      response: {
        description: 'One result per person',
        schema: ParticipantResults,
        component: 'ParticipantResults',
      },
      toBody: (results, { groupId }) => ({ groupId, results }),
    },
  });
}

/** getInviteCode / revokeInvite: the (new) code, and REST's link. */
function invite(revoke: boolean) {
  return defineCapability({
    name: revoke ? 'groups.revokeInvite' : 'groups.getInviteCode',
    summary: revoke
      ? 'Invalidates the invite code (admins only); resolves to the new one'
      : 'The invite link code (admins only): people join with https://chat.whatsapp.com/<code>',
    docs,
    mode: 'direct',
    input: groupInput,
    args: ['groupId'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine, { groupId }) =>
      revoke ? engine.ops.groups.revokeInvite(groupId) : engine.ops.groups.getInviteCode(groupId),
    http: {
      ...route,
      method: revoke ? 'DELETE' : 'GET',
      path: '/groups/{id}/invite',
      operationId: revoke ? 'revokeGroupInvite' : 'getGroupInvite',
      summary: revoke
        ? 'Revoke the invite code (admins only); answers the new one'
        : 'The invite code and link (admins only)',
      params,
      toInput: groupOfPath,
      status: 200,
      response: {
        description: revoke ? 'The new invite code' : 'Invite code',
        schema: InviteCode,
        component: 'GroupInviteCode',
      },
      toBody: (code, { groupId }) => ({ groupId, code, link: link(code) }),
    },
  });
}

/** setSubject / setDescription / setSettings: the SDK's single changes (REST's PATCH is `update`). */
const setters = {
  setSubject: defineCapability({
    name: 'groups.setSubject',
    summary: 'Members may, unless infoAdminsOnly (then admins only). 1-100 characters',
    docs,
    mode: 'direct',
    input: z.object({ groupId: groupIdInput, subject: subjectInput }).strict(),
    args: ['groupId', 'subject'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine, { groupId, subject }) => engine.ops.groups.setSubject(groupId, subject),
  }),
  setDescription: defineCapability({
    name: 'groups.setDescription',
    summary: "Members may, unless infoAdminsOnly. Up to 2048 characters; '' clears it",
    docs,
    mode: 'direct',
    input: z.object({ groupId: groupIdInput, description: descriptionInput }).strict(),
    args: ['groupId', 'description'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine, { groupId, description }) =>
      engine.ops.groups.setDescription(groupId, description),
  }),
  setSettings: defineCapability({
    name: 'groups.setSettings',
    summary: 'Admins only; changes the settings given and resolves to all of them',
    docs,
    mode: 'direct',
    input: z.object({ groupId: groupIdInput, settings: settingsInput }).strict(),
    args: ['groupId', 'settings'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine, { groupId, settings }) => engine.ops.groups.setSettings(groupId, settings),
  }),
};

export const groups = {
  create: defineCapability({
    name: 'groups.create',
    effect: 'additive',
    summary:
      'Creates a group with this account as its creator (superadmin); participants may be []',
    docs,
    mode: 'direct',
    input: z.object({ subject: subjectInput, participants: peopleInput(0) }).strict(),
    args: ['subject', 'participants'],
    errors: [],
    run: (engine, { subject, participants: people }) => engine.ops.groups.create(subject, people),
    http: {
      ...route,
      method: 'POST',
      path: '/groups',
      operationId: 'createGroup',
      summary: 'Create a group (this account is its creator); one result per participant',
      body: CreateGroupRequest,
      components: { CreateGroupRequest, ParticipantResult: ParticipantResultSchema },
      toInput: ({ body }) => ({
        subject: body.subject as string,
        participants: body.participants as string[],
      }),
      status: 201,
      response: {
        description: 'Created',
        schema: CreatedGroupSchema,
        component: 'CreatedGroup',
        headers: { Location: 'The group' },
      },
      headers: (created) => ({ Location: `/api/v1/groups/${encodeURIComponent(created.id)}` }),
    },
  }),
  get: defineCapability({
    name: 'groups.get',
    summary: 'Subject, description, owner, creation time, participants with roles, settings',
    docs,
    mode: 'direct',
    input: groupInput,
    args: ['groupId'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    run: (engine, { groupId }) => engine.ops.groups.get(groupId),
    http: {
      ...route,
      method: 'GET',
      path: '/groups/{id}',
      operationId: 'getGroup',
      summary: 'A group: subject, description, owner, participants with roles, settings',
      params,
      components: { GroupSettings: GroupSettingsSchema },
      toInput: groupOfPath,
      status: 200,
      response: { description: 'The group', schema: GroupInfoSchema, component: 'GroupInfo' },
    },
  }),
  ...setters,
  update: defineCapability({
    name: 'groups.update',
    summary: 'Changes subject, description and/or settings (in that order); resolves to the group',
    docs,
    mode: 'direct',
    input: z
      .object({
        groupId: groupIdInput,
        changes: z
          .object({
            subject: subjectInput.optional(),
            description: descriptionInput.optional(),
            settings: settingsInput.optional(),
          })
          .strict(),
      })
      .strict(),
    args: ['groupId', 'changes'],
    errors: ['CHAT_NOT_FOUND', 'PERMISSION_DENIED'],
    async run(engine, { groupId, changes }) {
      if (changes.subject !== undefined)
        await engine.ops.groups.setSubject(groupId, changes.subject);
      if (changes.description !== undefined) {
        await engine.ops.groups.setDescription(groupId, changes.description);
      }
      if (changes.settings !== undefined)
        await engine.ops.groups.setSettings(groupId, changes.settings);
      return engine.ops.groups.get(groupId);
    },
    http: {
      ...route,
      method: 'PATCH',
      path: '/groups/{id}',
      operationId: 'updateGroup',
      summary: 'Change subject, description and/or settings; answers the group after the change',
      params,
      body: UpdateGroupRequest,
      components: { UpdateGroupRequest },
      toInput: ({ params: p, body }) => ({ groupId: p.id as string, changes: body }),
      status: 200,
      response: {
        description: 'The group after the change',
        schema: GroupInfoSchema,
        component: 'GroupInfo',
      },
    },
  }),
  addParticipants: participants(
    'addParticipants',
    'Adds people (admins only): added, invited (their privacy allows invitations only), or refused',
    {
      method: 'POST',
      path: '/participants',
      operationId: 'addGroupParticipants',
      summary: 'Add people (admins only)',
    },
  ),
  removeParticipants: participants(
    'removeParticipants',
    'Removes people (admins only): removed, or refused (not_member, is_owner, is_self)',
    {
      method: 'DELETE',
      path: '/participants',
      operationId: 'removeGroupParticipants',
      summary: 'Remove people (admins only)',
    },
  ),
  promoteParticipants: participants(
    'promoteParticipants',
    'Makes members admins (admins only): promoted, or refused (not_member, already_admin)',
    {
      method: 'POST',
      path: '/admins',
      operationId: 'promoteGroupParticipants',
      summary: 'Make members admins (admins only)',
    },
  ),
  demoteParticipants: participants(
    'demoteParticipants',
    'Makes admins plain members (admins only): demoted, or refused (not_admin, is_owner, …)',
    {
      method: 'DELETE',
      path: '/admins',
      operationId: 'demoteGroupParticipants',
      summary: 'Make admins plain members (admins only)',
    },
  ),
  getInviteCode: invite(false),
  revokeInvite: invite(true),
  join: defineCapability({
    name: 'groups.join',
    effect: 'additive',
    summary: 'Joins by invite code (or full chat.whatsapp.com link); resolves to the group id',
    docs,
    mode: 'direct',
    input: z.object({ code: inviteCodeInput }).strict(),
    args: ['code'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { code }) => engine.ops.groups.joinByInvite(code),
    http: {
      ...route,
      method: 'POST',
      path: '/groups/join',
      operationId: 'joinGroup',
      summary: 'Join a group by invite code (or chat.whatsapp.com link)',
      body: JoinGroupRequest,
      components: { JoinGroupRequest },
      toInput: ({ body }) => ({ code: body.code as string }),
      status: 200,
      response: {
        description: 'Joined (or already a member)',
        schema: z.object({ groupId: z.string() }).strict(),
        component: 'GroupJoined',
      },
      toBody: (groupId) => ({ groupId }),
    },
  }),
  leave: defineCapability({
    name: 'groups.leave',
    summary: 'Leaves the group',
    docs,
    mode: 'direct',
    input: groupInput,
    args: ['groupId'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { groupId }) => engine.ops.groups.leave(groupId),
    http: {
      ...route,
      method: 'POST',
      path: '/groups/{id}/leave',
      operationId: 'leaveGroup',
      summary: 'Leave the group',
      params,
      toInput: groupOfPath,
      status: 204,
      response: { description: 'Left' },
    },
  }),
  isAdmin: defineCapability({
    name: 'groups.isAdmin',
    effect: 'read',
    summary: 'Whether a person is an admin of the group (adminOnly commands ask it)',
    docs,
    mode: 'direct',
    input: z
      .object({ groupId: groupIdInput, memberId: chatIdInput(PERSON_KINDS, 'memberId') })
      .strict(),
    args: ['groupId', 'memberId'],
    errors: [],
    run: (engine, { groupId, memberId }) => engine.ops.groups.isAdmin(groupId, memberId),
  }),
};
