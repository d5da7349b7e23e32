/** The parts of whatsapp-web.js 1.34's group structures the engine uses (structural types). */
import type { ChatLike, GroupParticipantLike, SerializedId } from './types.js';

/** `groupMetadata` of a GroupChat (WhatsApp Web's GroupMetadata model, serialized). */
export interface GroupMetadataLike {
  owner?: SerializedId | string;
  /** Unix seconds. */
  creation?: number;
  desc?: string;
  /** Only admins can send. */
  announce?: boolean;
  /** Only admins can edit info. */
  restrict?: boolean;
  participants?: GroupParticipantLike[];
}

/** `AddParticipantsResult` (GroupChat.js:56). */
export interface AddResultLike {
  code: number;
  message: string;
  isInviteV4Sent: boolean;
}

/** `GroupChat` (structures/GroupChat.js). */
export interface GroupChatLike extends ChatLike {
  name?: string;
  groupMetadata?: GroupMetadataLike;
  addParticipants(ids: string[]): Promise<Record<string, AddResultLike> | string>;
  removeParticipants(ids: string[]): Promise<{ status: number }>;
  promoteParticipants(ids: string[]): Promise<{ status: number }>;
  demoteParticipants(ids: string[]): Promise<{ status: number }>;
  setSubject(subject: string): Promise<boolean>;
  setDescription(description: string): Promise<boolean>;
  setMessagesAdminsOnly(adminsOnly?: boolean): Promise<boolean>;
  setInfoAdminsOnly(adminsOnly?: boolean): Promise<boolean>;
  getInviteCode(): Promise<string | undefined>;
  revokeInvite(): Promise<string>;
  leave(): Promise<void>;
}

/** `CreateGroupResult` (Client.js:2280). */
export interface CreateGroupResultLike {
  title: string;
  gid: SerializedId;
  participants: Record<
    string,
    { statusCode: number; message: string; isGroupCreator: boolean; isInviteV4Sent: boolean }
  >;
}

/** The Client methods groups need beyond ClientLike. */
export interface GroupClientLike {
  createGroup(title: string, participants: string[]): Promise<CreateGroupResultLike | string>;
  acceptInvite(inviteCode: string): Promise<string>;
}
