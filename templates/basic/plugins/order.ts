import { defineConversation, definePlugin, z } from 'wakitjs';

/**
 * The reference dialog (docs/conversations.md): `!order` asks the size (a menu: a number, a label
 * or a poll vote), the delivery address, then a confirmation; `!orders` lists the chat's orders.
 * Durable: after a crash the person goes on where they were, and nothing is sent twice. Each
 * reply shows "typing…" first (the `typing` option).
 */
const SIZES = ['small', 'medium', 'large'] as const;

const orderState = z.object({
  nextNumber: z.number().int().default(1),
  orders: z
    .array(z.object({ number: z.number().int(), size: z.enum(SIZES), address: z.string() }))
    .default([]),
});

const options = z
  .object({
    /** Time without an answer before one reminder, and again before the order expires. */
    timeoutSeconds: z.number().positive().default(300),
    /** The size menu as a numbered text or as a WhatsApp poll (the number and label count too). */
    menu: z.enum(['text', 'poll']).default('text'),
    /**
     * "typing…" before each reply: true for a time that fits the text, a number of ms (at most
     * 20 s), false for none (docs/conversations.md, "Typing per reply").
     */
    typing: z.union([z.boolean(), z.number().int().min(0).max(20_000)]).default(true),
  })
  .strict();

export default definePlugin({
  name: 'order',
  options,
  setup(ctx) {
    ctx.conversations.define(
      defineConversation({
        name: 'order',
        version: 1,
        trigger: { command: 'order' },
        state: orderState,
        timeout: {
          seconds: ctx.options.timeoutSeconds,
          reminder: 'Are you still there? Answer the last question, or send "cancel".',
          expired: 'Order expired.',
        },
        cancelled: 'Order cancelled.',
        async run(conv) {
          const shown = { typing: ctx.options.typing };
          const size = await conv.choose('Which size?', SIZES, {
            ...shown,
            as: ctx.options.menu,
            retry: 'Please answer 1, 2 or 3 (or small, medium, large).',
            tooManyAttempts: 'Too many wrong answers: order cancelled.',
          });
          const address = await conv.text('Delivery address?', {
            ...shown,
            validate: (text) => text.length >= 5 || 'The address needs at least 5 characters.',
            tooManyAttempts: 'Too many wrong answers: order cancelled.',
          });
          const yes = await conv.confirm(`Confirm: a ${size} order to ${address}? (yes/no)`, {
            ...shown,
            tooManyAttempts: 'Too many wrong answers: order cancelled.',
          });
          if (!yes) return conv.say('Order cancelled.', shown);
          const state = await conv.state.update((s) => ({
            nextNumber: s.nextNumber + 1,
            orders: [...s.orders, { number: s.nextNumber, size, address }],
          }));
          await conv.say(`Order placed: #${state.nextNumber - 1}.`, shown);
        },
      }),
      { description: 'Order something: size, address, confirmation' },
    );

    ctx.command(
      'orders',
      async (cmd) => {
        const { orders } = await ctx.conversations.state(cmd.message, orderState).get();
        await cmd.reply(
          orders.length === 0
            ? 'No orders yet: send !order.'
            : orders.map((o) => `#${o.number}: ${o.size} to ${o.address}`).join('\n'),
        );
      },
      { description: 'List the orders placed in this chat' },
    );
  },
});
