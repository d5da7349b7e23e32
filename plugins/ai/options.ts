/** The `ai` plugin's options (bot.config.json `plugins.ai`), checked by zod like any plugin's. */
import { chatIdSchema, z } from '../../src/index.js';

/** `allow`: offered to the model; `off`: not offered. */
const policy = z.enum(['allow', 'off']).default('off');

const builtInTools = z
  .object({
    /** `schedule_message`: a message to this chat at a later time (a scheduled send). */
    schedule: z
      .object({
        policy,
        /** Scheduled messages per turn; more calls are refused (the model reads why). */
        maxPerTurn: z.number().int().min(1).max(10).default(1),
        /** How far ahead (ms); within `queue.schedule.maxAheadMs` too. Default 7 days. */
        maxAheadMs: z
          .number()
          .int()
          .min(60_000)
          .default(7 * 24 * 3600_000),
      })
      .strict()
      .prefault({}),
    /** `start_conversation`: starts one of `conversations` (declared by the bot) in this chat. */
    startConversation: z
      .object({
        policy,
        /** The conversations the model may start, by name, with what each is for. */
        conversations: z
          .array(
            z.object({ name: z.string().min(1), description: z.string().min(1).max(500) }).strict(),
          )
          .default([]),
      })
      .strict()
      .prefault({}),
    /** `look_up_chat`: the chat's mode, name, whether a group, the contact's name (reads only). */
    lookUpChat: z.boolean().default(false),
  })
  .strict()
  .prefault({});

export const aiOptions = z
  .object({
    /**
     * The OpenAI-compatible endpoint: `https://api.openai.com/v1` (default), OpenRouter's, an
     * Azure deployment's, Ollama's `http://localhost:11434/v1`, vLLM's, LM Studio's.
     */
    baseURL: z.string().url().default('https://api.openai.com/v1'),
    /** The model name the endpoint knows (`gpt-4o-mini`, `llama3.1`, …). */
    model: z.string().min(1),
    /** The key, usually `${OPENAI_API_KEY}` (the config substitutes it); local servers take any. */
    apiKey: z.string().default('none'),
    /** Query parameters on every call (Azure: `{ "api-version": "2024-10-21" }`). */
    defaultQuery: z.record(z.string(), z.string()).optional(),
    /** Headers on every call (Azure: `{ "api-key": "${AZURE_KEY}" }`). */
    defaultHeaders: z.record(z.string(), z.string()).optional(),
    systemPrompt: z
      .string()
      .max(20_000)
      .default('You are a helpful assistant on WhatsApp. Answer briefly.'),
    temperature: z.number().min(0).max(2).optional(),
    /** Only on these clients (names); all when absent. */
    clients: z.array(z.string()).optional(),
    /** Only in these chats (ids or phone numbers); every private chat when absent. */
    chats: z.array(chatIdSchema).optional(),
    /** Answer in groups too (every group, or those in `chats`). */
    groups: z.boolean().default(false),
    /** Turns (a person's message and the answer) kept per chat as the model's memory. */
    maxTurnsInMemory: z.number().int().min(0).max(100).default(10),
    /** Longest stored text of one message in memory (characters; longer ones are cut). */
    maxMemoryChars: z.number().int().min(100).max(20_000).default(2_000),
    /** The whole turn (every model call and tool round) must finish within this (ms). */
    turnDeadlineMs: z.number().int().min(100).max(600_000).default(20_000),
    /** Model calls that may ask for tools within one turn; the next call gets no tools. */
    maxToolRounds: z.number().int().min(0).max(10).default(3),
    /** At most this many messages sent per turn (the rest is joined into the last one). */
    maxMessagesPerTurn: z.number().int().min(1).max(10).default(2),
    /** Sent when the model fails or does not answer in time. */
    fallbackMessage: z
      .string()
      .min(1)
      .default('Sorry, I cannot answer right now. Please try again in a moment.'),
    /** Sent instead of calling the model when a token budget is used up. */
    budgetMessage: z
      .string()
      .min(1)
      .default('I have answered a lot today and must stop here. A person will get back to you.'),
    /** Sent to a message with no text the plugin reads (media without `vision`/`transcription`, too large). */
    mediaMessage: z.string().min(1).default('Sorry, I can only read text messages for now.'),
    /** Send images (with their caption) to the model as a data URL part: models that see images. */
    vision: z.boolean().default(false),
    /** Largest image sent to the model (bytes); a larger one gets `mediaMessage`. */
    maxImageBytes: z.number().int().min(1_000).max(20_000_000).default(5_000_000),
    /** Voice notes and audio transcribed by the endpoint's speech-to-text, then answered. */
    transcription: z
      .object({
        /** The speech-to-text model (`whisper-1`, `gpt-4o-mini-transcribe`, a local server's). */
        model: z.string().min(1),
        /** Largest audio transcribed (bytes); a larger one gets `mediaMessage`. */
        maxBytes: z.number().int().min(1_000).max(25_000_000).default(10_000_000),
        /** The language spoken (ISO 639-1, e.g. `pt`), when known: better transcripts. */
        language: z.string().min(2).max(5).optional(),
      })
      .strict()
      .optional(),
    /** Sent when the model hands the chat to a person (the `handoff` tool); `""`: nothing. */
    handoffMessage: z.string().default('I am passing you to a person, who will answer here.'),
    /** Offer the model the `handoff` tool. */
    handoff: z.boolean().default(true),
    /** Tokens (prompt + completion, as the endpoint counts them) per chat per UTC day; 0: none. */
    chatTokensPerDay: z.number().int().min(0).default(50_000),
    /** Tokens per client per UTC day (this process's count); 0: no limit. */
    clientTokensPerDay: z.number().int().min(0).default(1_000_000),
    /** The built-in tools besides `handoff` (docs/ai.md#built-in-tools); each is off by default. */
    tools: builtInTools,
    /** Log the texts sent to and received from the model (off: only sizes and token counts). */
    logContent: z.boolean().default(false),
  })
  .strict();

export type AiOptionsInput = z.input<typeof aiOptions>;
export type AiOptions = z.output<typeof aiOptions>;
