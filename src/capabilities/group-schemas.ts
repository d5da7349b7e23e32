/**
 * The schemas of the groups capabilities (groups.ts): what the SDK methods take (checked and
 * normalised: VALIDATION_FAILED, INVALID_CHAT_ID) and what REST takes and answers (the bodies and
 * results, which the REST plugin names as OpenAPI components).
 */
import { z } from 'zod';
import { issueError, zodIssues } from '../errors/index.js';
import { REFUSAL_REASONS } from '../engines/ports/groups.js';
import { GROUP_KINDS, PERSON_KINDS, chatIdPattern, normalizeChatId } from '../client/chat-id.js';
import { chatIdInput } from './chat-id-schemas.js';

/** WhatsApp's limits: subject 100 characters, description 2048, 1024 members. */
export const GROUP_LIMITS = { subject: 100, description: 2048, participants: 1023 } as const;

const INVITE = /^(?:https?:\/\/chat\.whatsapp\.com\/(?:invite\/)?)?([A-Za-z0-9_-]{6,64})\/?$/;

// ---- SDK inputs ----

export const groupIdInput = chatIdInput(GROUP_KINDS, 'groupId');
export const subjectInput = z.string().trim().min(1, 'must not be empty').max(GROUP_LIMITS.subject);
export const descriptionInput = z.string().max(GROUP_LIMITS.description);
export const settingsInput = z
  .object({ messagesAdminsOnly: z.boolean().optional(), infoAdminsOnly: z.boolean().optional() })
  .strict()
  .refine((s) => s.messagesAdminsOnly !== undefined || s.infoAdminsOnly !== undefined, {
    message: 'give messagesAdminsOnly and/or infoAdminsOnly',
  });

/** People (phone numbers, `@c.us` or `@lid` ids), at least `min`, normalised and deduplicated. */
export function peopleInput(min: number) {
  return z
    .array(z.string())
    .min(min)
    .max(GROUP_LIMITS.participants)
    .transform((list) => [
      ...new Set(
        list.map((id, i) => normalizeChatId(id, `participants.${i}`, { allow: PERSON_KINDS })),
      ),
    ]);
}

/** An invite code, or a `https://chat.whatsapp.com/<code>` link (its code). */
export const inviteCodeInput = z
  .string()
  .trim()
  .regex(INVITE, 'must be an invite code or https://chat.whatsapp.com/<code>')
  .transform((value) => INVITE.exec(value)?.[1] ?? value);

/** The invite code of a code or a `https://chat.whatsapp.com/<code>` link; VALIDATION_FAILED otherwise. */
export function inviteCodeOf(value: unknown): string {
  const parsed = inviteCodeInput.safeParse(value);
  if (parsed.success) return parsed.data;
  throw issueError(
    'VALIDATION_FAILED',
    'Not an invite code or chat.whatsapp.com link',
    zodIssues(parsed.error, ['code']),
  );
}

// ---- REST ----

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

export const GroupSettingsSchema = z
  .object({
    messagesAdminsOnly: z.boolean().describe('only admins can send messages'),
    infoAdminsOnly: z.boolean().describe('only admins can edit subject and description'),
  })
  .strict();

export const CreateGroupRequest = z
  .object({
    subject: z.string().min(1).max(GROUP_LIMITS.subject),
    participants: people.default([]),
  })
  .strict();

export const UpdateGroupRequest = z
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
  .meta({ minProperties: 1 });

export const ParticipantsRequest = z.object({ participants: people.min(1) }).strict();

export const JoinGroupRequest = z
  .object({
    code: z.string().min(1).max(128).describe('invite code or https://chat.whatsapp.com/<code>'),
  })
  .strict();

export const ParticipantResultSchema = z
  .object({
    id: z.string(),
    outcome: z.enum(['added', 'invited', 'removed', 'promoted', 'demoted', 'refused']),
    reason: z.enum(REFUSAL_REASONS).optional(),
    message: z.string().optional(),
  })
  .strict();

export const ParticipantResults = z
  .object({ groupId: z.string(), results: z.array(ParticipantResultSchema) })
  .strict();

export const CreatedGroupSchema = z
  .object({
    id: z.string(),
    subject: z.string(),
    participants: z.array(ParticipantResultSchema),
  })
  .strict();

export const GroupInfoSchema = z
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
  .strict();

export const InviteCode = z
  .object({ groupId: z.string(), code: z.string(), link: z.string() })
  .strict();
