/**
 * Request and response schemas of the group routes (`routes/groups.ts`), registered as OpenAPI
 * components like those of `schemas.ts`. Ids are checked by the SDK (INVALID_CHAT_ID), lengths here.
 */
import { z } from 'zod';
import {
  GROUP_LIMITS,
  PERSON_KINDS,
  REFUSAL_REASONS,
  chatIdPattern,
} from '../../src/entries/contract.js';
import { restSchemas } from './schemas.js';

function named<T extends z.ZodType>(id: string, schema: T): T {
  restSchemas.add(schema, { id });
  return schema;
}

/** `{id}` of a group route: `<id>@g.us`, or its digits (`@g.us` is added). */
export const GroupIdParam = z
  .string()
  .min(5)
  .max(64)
  // the group ids of src/client/chat-id.ts, with `@g.us` optional
  .meta({ pattern: '^(?:\\d{5,25}|\\d{5,20}-\\d{5,15})(?:@g\\.us)?$' })
  .transform((v) => (v.includes('@') ? v : `${v}@g.us`));

const person = z
  .string()
  .min(1)
  .max(128)
  .meta({ pattern: chatIdPattern(PERSON_KINDS) })
  .describe('phone number, <digits>@c.us or <digits>@lid');
const people = z.array(person).max(GROUP_LIMITS.participants);

export const GroupSettingsSchema = named(
  'GroupSettings',
  z
    .object({
      messagesAdminsOnly: z.boolean().describe('only admins can send messages'),
      infoAdminsOnly: z.boolean().describe('only admins can edit subject and description'),
    })
    .strict(),
);

export const CreateGroupRequest = named(
  'CreateGroupRequest',
  z
    .object({
      subject: z.string().min(1).max(GROUP_LIMITS.subject),
      participants: people.default([]),
    })
    .strict(),
);

export const UpdateGroupRequest = named(
  'UpdateGroupRequest',
  z
    .object({
      subject: z.string().min(1).max(GROUP_LIMITS.subject).optional(),
      description: z.string().max(GROUP_LIMITS.description).optional(),
      settings: z
        .object({
          messagesAdminsOnly: z.boolean().optional(),
          infoAdminsOnly: z.boolean().optional(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .refine(
      (b) => b.subject !== undefined || b.description !== undefined || b.settings !== undefined,
      { message: 'give subject, description and/or settings' },
    )
    .meta({ minProperties: 1 }),
);

export const ParticipantsRequest = named(
  'ParticipantsRequest',
  z.object({ participants: people.min(1) }).strict(),
);

export const JoinGroupRequest = named(
  'JoinGroupRequest',
  z
    .object({
      code: z.string().min(1).max(128).describe('invite code or https://chat.whatsapp.com/<code>'),
    })
    .strict(),
);

export const ParticipantResultSchema = named(
  'ParticipantResult',
  z
    .object({
      id: z.string(),
      outcome: z.enum(['added', 'invited', 'removed', 'promoted', 'demoted', 'refused']),
      reason: z.enum(REFUSAL_REASONS).optional(),
      message: z.string().optional(),
    })
    .strict(),
);

export const ParticipantResults = named(
  'ParticipantResults',
  z.object({ groupId: z.string(), results: z.array(ParticipantResultSchema) }).strict(),
);

export const CreatedGroupSchema = named(
  'CreatedGroup',
  z
    .object({
      id: z.string(),
      subject: z.string(),
      participants: z.array(ParticipantResultSchema),
    })
    .strict(),
);

export const GroupInfoSchema = named(
  'GroupInfo',
  z
    .object({
      id: z.string(),
      subject: z.string(),
      description: z.string(),
      owner: z.string().optional(),
      createdAt: z.string().optional(),
      participants: z.array(
        z.object({ id: z.string(), role: z.enum(['superadmin', 'admin', 'member']) }).strict(),
      ),
      settings: GroupSettingsSchema,
    })
    .strict(),
);

export const InviteCode = named(
  'GroupInviteCode',
  z.object({ groupId: z.string(), code: z.string(), link: z.string() }).strict(),
);

export const GroupJoined = named('GroupJoined', z.object({ groupId: z.string() }).strict());
