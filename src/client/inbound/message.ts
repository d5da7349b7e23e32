import type { SendContent } from '../send/send-contract.js';
import type {
  Ack,
  ContactCard,
  LocationData,
  MediaData,
  MessageData,
  MessageSender,
  PollData,
  SendResult,
} from '../types.js';

/** What a message can do, given by its client: reply, forward and download go through it. */
export interface MessageActions {
  readonly client: string;
  reply(message: Message, content: SendContent): Promise<SendResult>;
  forward(message: Message, chatId: string): Promise<SendResult>;
  download(message: Message): Promise<MediaData>;
  quoted(message: Message): Promise<Message | null>;
  react(message: Message, emoji: string): Promise<SendResult>;
  edit(message: Message, text: string): Promise<SendResult>;
  delete(message: Message, forEveryone: boolean): Promise<SendResult>;
}

/**
 * A received or created message: the plain fields of the spec plus `client` (the client's name)
 * and the methods `reply`, `forward`, `downloadMedia`, `react`, `edit` and `delete`. `JSON.stringify` gives the plain data.
 */
export class Message implements MessageData {
  readonly client: string;
  readonly id: string;
  readonly body: string;
  readonly from: string;
  readonly to: string;
  readonly chatId: string;
  readonly timestamp: number;
  readonly hasMedia: boolean;
  readonly isGroup: boolean;
  readonly broadcast: boolean;
  readonly hasQuotedMsg: boolean;
  readonly fromMe: boolean;
  readonly type: string;
  readonly ack: Ack;
  readonly author?: string;
  readonly quotedMessageId?: string;
  readonly isForwarded?: boolean;
  /** The people it mentions, as chat ids; `[]` when none. */
  readonly mentionedIds: string[];
  readonly notifyName?: string;
  readonly media?: MessageData['media'];
  /** Who wrote it: `{ id, lid?, phone?, pushname? }` (in groups the author, else the chat). */
  readonly sender: MessageSender;
  /** Posted in a channel (`@newsletter`). */
  readonly isChannel: boolean;
  /** A status update (`status@broadcast`). */
  readonly isStatus: boolean;
  /** `type: 'location'`: where. */
  readonly location?: LocationData;
  /** `type: 'vcard'` / `'multi_vcard'`: the cards as vCard text, and parsed. */
  readonly vcards?: string[];
  readonly contacts?: ContactCard[];
  /** `type: 'poll_creation'`: the question and options (votes arrive as `poll.vote`). */
  readonly poll?: PollData;
  /**
   * With turns on (docs/turns.md): every message of the turn, oldest first; this
   * message is the last one with `body` the turn's texts joined by line breaks. Absent when off.
   */
  readonly turn?: readonly Message[];
  readonly #actions: MessageActions;

  /** One turn of `parts` (oldest first): the last one's fields, the non-empty texts joined. */
  static turnOf(parts: readonly Message[]): Message {
    const last = parts.at(-1);
    if (!last) throw new RangeError('a turn has at least one message');
    const body = parts
      .map((part) => part.body)
      .filter((text) => text.trim() !== '')
      .join('\n');
    return new Message({ ...last, body }, last.#actions, last.sender, parts);
  }

  constructor(
    data: MessageData,
    actions: MessageActions,
    sender: MessageSender = data.sender,
    turn?: readonly Message[],
  ) {
    this.client = actions.client;
    this.id = data.id;
    this.body = data.body;
    this.from = data.from;
    this.to = data.to;
    this.chatId = data.chatId;
    this.timestamp = data.timestamp;
    this.hasMedia = data.hasMedia;
    this.isGroup = data.isGroup;
    this.broadcast = data.broadcast;
    this.hasQuotedMsg = data.hasQuotedMsg;
    this.fromMe = data.fromMe;
    this.type = data.type;
    this.ack = data.ack;
    if (data.author !== undefined) this.author = data.author;
    if (data.quotedMessageId !== undefined) this.quotedMessageId = data.quotedMessageId;
    if (data.isForwarded !== undefined) this.isForwarded = data.isForwarded;
    this.mentionedIds = data.mentionedIds ?? [];
    if (data.notifyName !== undefined) this.notifyName = data.notifyName;
    if (data.media !== undefined) this.media = data.media;
    this.sender = Object.freeze(sender === data.sender ? { ...sender } : sender);
    this.isChannel = data.isChannel;
    this.isStatus = data.isStatus;
    if (data.location !== undefined) this.location = data.location;
    if (data.vcards !== undefined) this.vcards = data.vcards;
    if (data.contacts !== undefined) this.contacts = data.contacts;
    if (data.poll !== undefined) this.poll = data.poll;
    if (turn !== undefined) this.turn = Object.freeze([...turn]);
    this.#actions = actions;
  }

  /**
   * Replies in the same chat, quoting this message: text, or content as `ctx.send` takes it
   * (`{ type: 'image', url }`, `{ type: 'location', latitude, longitude }`, ...). Replies go
   * ahead of bulk sends in the queue.
   */
  reply(content: SendContent): Promise<SendResult> {
    return this.#actions.reply(this, content);
  }

  /** The message this one quotes (a reply's original), or null when it quotes none. */
  getQuotedMessage(): Promise<Message | null> {
    if (!this.hasQuotedMsg) return Promise.resolve(null);
    return this.#actions.quoted(this);
  }

  /** Forwards this message to another chat (through the queue). */
  forward(chatId: string): Promise<SendResult> {
    return this.#actions.forward(this, chatId);
  }

  /** Downloads the media: `{ data (base64), mimetype, filename }`; MEDIA_NOT_FOUND when there is none. */
  downloadMedia(): Promise<MediaData> {
    return this.#actions.download(this);
  }

  /** Reacts with one emoji (`''` removes the reaction); queued like a send. */
  react(emoji: string): Promise<SendResult> {
    return this.#actions.react(this, emoji);
  }

  /** Edits this message (own messages, within 15 minutes); queued like a send. */
  edit(text: string): Promise<SendResult> {
    return this.#actions.edit(this, text);
  }

  /** Deletes this message for everyone (own, within 2 days 12 hours) or only here (default). */
  delete(options: { forEveryone?: boolean } = {}): Promise<SendResult> {
    return this.#actions.delete(this, options.forEveryone ?? false);
  }
}
