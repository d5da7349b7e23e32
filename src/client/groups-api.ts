import type { ClientCore } from './client-core.js';

/** Groups: the part of the SDK client that reads and manages groups. */
export interface GroupsApi {
  /** True when `memberId` is an admin of the group `groupId`. */
  isGroupAdmin(groupId: string, memberId: string): Promise<boolean>;
}

export function groupsApi(core: ClientCore): GroupsApi {
  return {
    isGroupAdmin: (groupId, memberId) => core.requireEngine().isGroupAdmin(groupId, memberId),
  };
}
