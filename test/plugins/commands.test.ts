import { expect } from 'chai';
import { definePlugin, type CommandContext, type Message } from '../../src/index.js';
import { parseArgs, parseCommand } from '../../src/plugins/parse-args.js';
import type { SimInboxMessage } from '../../src/engines/simulator/index.js';
import { CommandRegistry } from '../../src/plugins/commands.js';
import {
  ALICE,
  ALICE_ID,
  BOB,
  BOT_ID,
  GROUP_ID,
  eventually,
  pluginFixture,
  settle,
  type PluginFixture,
} from './plugin-helpers.js';

describe('command arguments', () => {
  it('splits on whitespace and keeps quoted parts together', () => {
    expect(parseArgs('"hello world" 3')).to.deep.equal(['hello world', '3']);
    expect(parseArgs("  a   'b c'  d ")).to.deep.equal(['a', 'b c', 'd']);
    expect(parseArgs('“smart quotes” ‘too’ «and» these')).to.deep.equal([
      'smart quotes',
      'too',
      'and',
      'these',
    ]);
    expect(parseArgs('"say \\"hi\\"" x')).to.deep.equal(['say "hi"', 'x']);
    expect(parseArgs('"" empty')).to.deep.equal(['', 'empty']);
    expect(parseArgs('"unclosed quote runs')).to.deep.equal(['unclosed quote runs']);
    expect(parseArgs('')).to.deep.equal([]);
  });

  it('reads a command only right after the prefix', () => {
    expect(parseCommand('!Say "hello world" 3', '!')).to.deep.equal({
      name: 'say',
      invokedAs: 'Say',
      rawArgs: '"hello world" 3',
      args: ['hello world', '3'],
    });
    expect(parseCommand('  /ping', '/')?.name).to.equal('ping');
    expect(parseCommand('! say', '!')).to.equal(undefined);
    expect(parseCommand('say', '!')).to.equal(undefined);
    expect(parseCommand('!', '!')).to.equal(undefined);
    expect(parseCommand('bot>help me', 'bot>')?.args).to.deep.equal(['me']);
  });
});

describe('commands', () => {
  let fx: PluginFixture;
  const calls: { name: string; args: readonly string[]; invokedAs: string }[] = [];
  const record = (cmd: CommandContext) => {
    calls.push({ name: cmd.name, args: cmd.args, invokedAs: cmd.invokedAs });
    return cmd.reply(`ok ${cmd.name} ${cmd.args.join('|')}`);
  };
  const commandsPlugin = definePlugin({
    name: 'cmds',
    setup(ctx) {
      ctx.command('say', record, {
        description: 'Repeat text',
        usage: '<text> [times]',
        aliases: ['Repeat'],
      });
      ctx.command('kick', record, { description: 'Kick someone', adminOnly: true });
      ctx.command('poll', record, { description: 'Start a poll', groupOnly: true });
      ctx.command('secret', record, { description: 'Private stuff', privateOnly: true });
      ctx.command('shutdown', record, { description: 'Owner only', owners: [`+${BOB}`] });
      ctx.command('crash', () => {
        throw new Error('command crashed');
      });
      ctx.command('hidden', record, { hidden: true });
    },
  });
  const fallthrough: string[] = [];
  const tail = definePlugin({
    name: 'tail',
    setup(ctx) {
      ctx.on('message', (event) => void fallthrough.push(event.message.body));
    },
  });

  async function ask(from: string, chat: string, text: string): Promise<SimInboxMessage> {
    const phone = fx.sdk.simulator.phone(from);
    const before = phone.inbox.length;
    await phone.send(chat, text);
    return phone.waitForMessage(
      (m) => phone.inbox.indexOf(m) >= before && m.author === BOT_ID,
      3_000,
    );
  }

  beforeEach(() => {
    calls.length = 0;
    fallthrough.length = 0;
  });
  afterEach(() => fx.cleanup());

  describe('with the default prefix', () => {
    beforeEach(async () => {
      fx = await pluginFixture();
      fx.sdk.use(commandsPlugin).use(tail);
      await fx.start();
    });

    it('runs a command with quoted arguments, case-insensitive names and aliases, and consumes it', async () => {
      const answer = await ask(ALICE, BOT_ID, '!SAY "hello world" 3');
      expect(answer.body).to.equal('ok say hello world|3');
      expect(answer.quotedMessageId).to.be.a('string');
      expect((await ask(ALICE, BOT_ID, '!repeat x')).body).to.equal('ok say x');
      expect(calls.map((c) => c.invokedAs)).to.deep.equal(['SAY', 'repeat']);
      await settle();
      expect(fallthrough).to.deep.equal([]);
    });

    it('answers denied commands with a short reason', async () => {
      expect((await ask(ALICE, BOT_ID, '!poll')).body).to.equal(
        'This command works only in groups.',
      );
      expect((await ask(ALICE, GROUP_ID, '!secret')).body).to.equal(
        'This command works only in private chats.',
      );
      expect((await ask(ALICE, GROUP_ID, '!kick')).body).to.equal(
        'Only group admins may use this command.',
      );
      expect((await ask(ALICE, BOT_ID, '!kick')).body).to.equal(
        'Only group admins may use this command.',
      );
      expect((await ask(ALICE, BOT_ID, '!shutdown')).body).to.equal(
        'You are not allowed to use this command.',
      );
      expect(calls).to.deep.equal([]);
      expect((await ask(BOB, GROUP_ID, '!kick')).body).to.equal('ok kick ');
      expect((await ask(BOB, BOT_ID, '!shutdown')).body).to.equal('ok shutdown ');
      expect((await ask(ALICE, GROUP_ID, '!poll a')).body).to.equal('ok poll a');
    });

    it('ignores unknown commands and lets them flow to the other handlers', async () => {
      await fx.sdk.simulator.phone(ALICE).send(BOT_ID, '!nope');
      await eventually(() => fallthrough.length === 1);
      await settle();
      expect(fallthrough).to.deep.equal(['!nope']);
      expect(fx.sdk.simulator.phone(ALICE).inbox.filter((m) => m.author === BOT_ID)).to.have.length(
        0,
      );
    });

    it('help lists only the commands the sender may use here', async () => {
      const privateHelp = (await ask(ALICE, BOT_ID, '!help')).body;
      expect(privateHelp.split('\n')).to.deep.equal([
        'Commands:',
        '!help [command] — List the commands you may use',
        '!say <text> [times] — Repeat text',
        '!secret — Private stuff',
        '!crash',
      ]);
      const groupHelpAlice = (await ask(ALICE, GROUP_ID, '!HELP')).body;
      expect(groupHelpAlice)
        .to.include('!poll')
        .and.not.include('!kick')
        .and.not.include('!secret');
      const groupHelpBob = (await ask(BOB, GROUP_ID, '!help')).body;
      expect(groupHelpBob).to.include('!kick').and.include('!shutdown');
      expect((await ask(ALICE, BOT_ID, '!help repeat')).body).to.equal(
        '!say <text> [times] — Repeat text\nAliases: !repeat',
      );
      expect((await ask(ALICE, BOT_ID, '!help kick')).body).to.equal(
        'No command !kick. Send !help for the list.',
      );
    });

    it('reports a failing command and tells the sender', async () => {
      expect((await ask(ALICE, BOT_ID, '!crash')).body).to.equal('Sorry, !crash failed.');
      expect(fx.errors).to.have.length(1);
      expect(fx.errors[0]).to.include({ plugin: 'cmds', event: 'command:crash', client: 'bot' });
      expect(fx.errors[0]?.messageId).to.be.a('string');
    });

    it('never runs commands for messages the bot sent itself', async () => {
      await fx.sdk.client('bot').sendTextMessage({ to: ALICE_ID, text: '!say mine' });
      await settle(100);
      expect(calls).to.deep.equal([]);
    });

    it('refuses a second command with a taken name or alias', () => {
      const other = new CommandRegistry(
        { prefix: '!' },
        () => undefined,
        () => undefined,
      );
      other.register('a', 'x', () => undefined, { aliases: ['y'] });
      expect(() => other.register('b', 'Y', () => undefined)).to.throw(
        /already registered by plugin a/,
      );
      expect(() => other.register('b', 'two words', () => undefined))
        .to.throw()
        .with.property('code', 'VALIDATION_FAILED');
    });
  });

  it('uses the configured prefix and unknown-command reply', async () => {
    fx = await pluginFixture({
      commands: { prefix: '/', unknownReply: 'Unknown command {{command}}. Try /help' },
    });
    fx.sdk.use(commandsPlugin).use(tail);
    await fx.start();
    expect((await ask(ALICE, BOT_ID, '/say hi')).body).to.equal('ok say hi');
    expect((await ask(ALICE, BOT_ID, '/Nope')).body).to.equal('Unknown command Nope. Try /help');
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, '!say not a command');
    await eventually(() => fallthrough.length === 1);
    expect(calls).to.have.length(1);
  });

  it('the command middleware skips fromMe and broadcast messages', async () => {
    const ran: string[] = [];
    const registry = new CommandRegistry(
      { prefix: '!' },
      () => undefined,
      () => undefined,
    );
    registry.register('p', 'go', () => void ran.push('go'));
    const passed: string[] = [];
    const fake = (fromMe: boolean, broadcast: boolean) =>
      ({
        body: '!go',
        fromMe,
        broadcast,
        isGroup: false,
        chatId: ALICE_ID,
        sender: ALICE_ID,
        id: 'm',
        reply: () => Promise.resolve({ id: 'r', trackingId: 't' }),
      }) as unknown as Message;
    for (const [fromMe, broadcast] of [
      [true, false],
      [false, true],
      [false, false],
    ] as const) {
      await registry.middleware(
        {
          name: 'message',
          client: { name: 'bot' },
          message: fake(fromMe, broadcast),
          args: [],
          data: undefined,
          state: {},
        } as never,
        () => {
          passed.push(`${fromMe}/${broadcast}`);
          return Promise.resolve();
        },
      );
    }
    expect(passed).to.deep.equal(['true/false', 'false/true']);
    expect(ran).to.deep.equal(['go']);
  });
});
