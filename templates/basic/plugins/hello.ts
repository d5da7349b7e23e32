import { definePlugin, z } from 'wakitjs';

/**
 * A first plugin: the `!hello [name]` command and a handler that answers "ping" with "pong".
 * Options come from bot.config.json ("./plugins/hello.ts": { "greeting": "Hello" }).
 */
export default definePlugin({
  name: 'hello',
  options: z.object({ greeting: z.string().min(1).default('Hello') }).strict(),
  setup(ctx) {
    ctx.command(
      'hello',
      async (cmd) => {
        const name = cmd.args.join(' ') || cmd.message.notifyName || 'there';
        await cmd.reply(`${ctx.options.greeting}, ${name}!`);
      },
      { description: 'Say hello', usage: '[name]', aliases: ['hi'] },
    );

    ctx.on('message', async (event, next) => {
      if (event.message.body.trim().toLowerCase() === 'ping') {
        await event.message.reply('pong');
        return; // handled: later handlers do not see it
      }
      await next();
    });

    ctx.on('ready', (event) => {
      ctx.log.info('%s is ready', event.client.name);
    });
  },
});
