/** A channel (`@newsletter`) of the virtual network: admins post, followers receive. */
import { WakitError } from '../../errors/index.js';
import type { SimChannel } from './types.js';
import { memberId } from './group.js';

export const CHANNEL_SUFFIX = '@newsletter';

export function channelId(value: string): string {
  const id = value.endsWith(CHANNEL_SUFFIX) ? value : `${value}${CHANNEL_SUFFIX}`;
  if (!/^\d{5,25}@newsletter$/.test(id)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `"${value}" is not a channel id (<digits>@newsletter)`,
    );
  }
  return id;
}

export class SimChannelImpl implements SimChannel {
  readonly admins = new Set<string>();
  readonly followers = new Set<string>();
  name: string;

  constructor(
    readonly id: string,
    name?: string,
  ) {
    this.name = name ?? id;
  }

  follow(number: string): void {
    this.followers.add(memberId(number));
  }
}
