import type { Ack, MediaData, MessageData, SendResult } from './types.js';

/** What a message can do, given by its client: reply, forward and download go through it. */
export interface MessageActions {
  readonly client: string;
  reply(message: Message, text: string): Promise<SendResult>;
  forward(message: Message, chatId: string): Promise<SendResult>;
  download(message: Message): Promise<MediaData>;
}

/**
 * A received or created message: the plain fields of the spec plus `client` (the client's name)
 * and the methods `reply`, `forward` and `downloadMedia`. `JSON.stringify` gives the plain data.
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
  readonly notifyName?: string;
  readonly media?: MessageData['media'];
  readonly #actions: MessageActions;

  constructor(data: MessageData, actions: MessageActions) {
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
    if (data.notifyName !== undefined) this.notifyName = data.notifyName;
    if (data.media !== undefined) this.media = data.media;
    this.#actions = actions;
  }

  /** The sender: the author inside a group, else `from`. */
  get sender(): string {
    return this.author ?? this.from;
  }

  /** Replies in the same chat, quoting this message; replies go ahead of bulk sends in the queue. */
  reply(text: string): Promise<SendResult> {
    return this.#actions.reply(this, text);
  }

  /** Forwards this message to another chat (through the queue). */
  forward(chatId: string): Promise<SendResult> {
    return this.#actions.forward(this, chatId);
  }

  /** Downloads the media: `{ data (base64), mimetype, filename }`; MEDIA_NOT_FOUND when there is none. */
  downloadMedia(): Promise<MediaData> {
    return this.#actions.download(this);
  }
}
