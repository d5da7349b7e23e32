import { z } from 'wakitjs';
import { createAiPlugin, defineAiTool } from 'wakitjs/ai';

/**
 * The assistant: wakit's `ai` plugin with a tool of this bot. A language model answers the
 * messages (a burst is one turn: `conversations.turns` in bot.config.json), can call
 * `opening_hours`, and hands the chat to a person with the built-in `handoff` tool (then the bot
 * is silent in that chat). Its options (endpoint, model, key, prompt) are the ones under
 * "./plugins/assistant.ts" in bot.config.json: node_modules/wakitjs/docs/ai.md lists them all.
 */
const DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

/** Opening hours by day; `null`: closed. Edit to yours. */
export const HOURS: Record<(typeof DAYS)[number], string | null> = {
  monday: '08:00-18:00',
  tuesday: '08:00-18:00',
  wednesday: '08:00-18:00',
  thursday: '08:00-18:00',
  friday: '08:00-18:00',
  saturday: '08:00-13:00',
  sunday: null,
};

/** A tool the model may call: its arguments are checked with the zod schema before `run`. */
export const openingHours = defineAiTool({
  name: 'opening_hours',
  description: 'The opening hours of the bakery, for one day or (without a day) the whole week',
  parameters: z.object({ day: z.enum(DAYS).optional() }),
  run: ({ day }) => {
    const show = (d: (typeof DAYS)[number]) => ({ day: d, hours: HOURS[d] ?? 'closed' });
    return day ? show(day) : DAYS.map(show);
  },
});

export default createAiPlugin({ tools: [openingHours] });
