/**
 * The action and presence vocabulary of the adapter checked against the installed whatsapp-web.js
 * sources (1.34): a library update that renames a method or event, or changes what it silently
 * does, fails here.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('whatsapp-web.js/package.json'));
const source = (file: string) => readFile(path.join(root, 'src', file), 'utf8');

describe('whatsapp-web.js library contract: actions and presence (installed sources)', () => {
  it('has the Message, Chat and Client methods the adapter calls', async () => {
    const message = await source('structures/Message.js');
    expect(message).to.contain('    async react(reaction) {');
    expect(message).to.contain('return this.client.sendReaction(this.id._serialized, reaction);');
    expect(message).to.contain('    async edit(content, options = {}) {');
    expect(message).to.contain('    async delete(everyone, clearMedia = true) {');
    const chat = await source('structures/Chat.js');
    for (const name of ['sendStateTyping', 'sendStateRecording', 'clearState', 'sendSeen']) {
      expect(chat, name).to.contain(`    async ${name}() {`);
    }
    const client = await source('Client.js');
    for (const signature of [
      'async sendSeen(chatId)',
      'async sendReaction(messageId, reaction)',
      'async sendPresenceAvailable()',
      'async sendPresenceUnavailable()',
    ]) {
      expect(client, signature).to.contain(signature);
    }
  });

  it('fails quietly where the adapter checks first (so those checks stay needed)', async () => {
    const message = await source('structures/Message.js');
    // edit: null for someone else's message or when WhatsApp will not edit it.
    expect(message).to.match(/if \(!this\.fromMe\) \{\s*return null;/);
    expect(message).to.contain('canEditText');
    // delete(true) revokes only when allowed, else deletes for me.
    expect(message).to.contain('canSenderRevokeMsg');
    expect(message).to.contain('canAdminRevokeMsg');
    expect(message).to.contain('Cmd.sendDeleteMsgs');
    // sendReaction: nothing for an unknown message.
    const client = await source('Client.js');
    expect(client).to.match(/sendReactionToMsg\(msg, reaction\)/);
  });

  it('emits message_reaction, message_edit and message_revoke_everyone with the mapped shapes', async () => {
    const constants = await source('util/Constants.js');
    expect(constants).to.contain("MESSAGE_REACTION: 'message_reaction'");
    expect(constants).to.contain("MESSAGE_EDIT: 'message_edit'");
    expect(constants).to.contain("MESSAGE_REVOKED_EVERYONE: 'message_revoke_everyone'");
    const reaction = await source('structures/Reaction.js');
    for (const field of [
      'this.id = data.msgKey',
      'this.reaction = data.reactionText',
      'this.msgId = data.parentMsgKey',
      'this.senderId = data.senderUserJid',
      'this.timestamp = data.timestamp',
    ]) {
      expect(reaction, field).to.contain(field);
    }
    const client = await source('Client.js');
    expect(client).to.match(
      /Events\.MESSAGE_EDIT,\s*new Message\(this, msg\),\s*newBody,\s*prevBody/,
    );
    expect(client).to.match(/Events\.MESSAGE_REVOKED_EVERYONE,\s*message,\s*revoked_msg/);
  });
});
