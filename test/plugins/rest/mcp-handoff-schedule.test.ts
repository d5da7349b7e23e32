// The MCP tools of handoff and scheduling (plugins/rest/mcp/handoff-schedule-tools.ts) over
// Streamable HTTP, the official SDK's client against a real REST server on loopback, the simulator
// behind it: a chat's mode set and read (REST agrees), a send scheduled with messages_send's
// sendAt, listed, moved and cancelled (it never reaches the phone), the recurring jobs listed; the
// same checks and scopes as REST (VALIDATION_FAILED naming the field, FORBIDDEN, MESSAGE_NOT_FOUND).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import {
  ADMIN_TOKEN,
  CONTACT,
  CONTACT_ID,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

async function connect(fx: RestFixture, token: string): Promise<Client> {
  const client = new Client({ name: 'wakit-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${fx.url}/api/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

type Coded = { error: { code: string; issues?: { path: string }[] } };
const errorOf = (result: unknown) => ((result as CallToolResult).structuredContent as Coded).error;
const bodyOf = <T>(result: unknown): T => {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r)).to.equal(false);
  return r.structuredContent as T;
};

describe('MCP tools: chat modes (handoff) and scheduled sends', function () {
  this.timeout(30_000);
  let fx: RestFixture;
  let admin: Client;
  let scoped: Client;

  before(async () => {
    fx = await restFixture({ start: true });
    await fx.link('bot');
    admin = await connect(fx, ADMIN_TOKEN);
    scoped = await connect(fx, SCOPED_TOKEN);
  });
  after(async () => {
    await scoped?.close();
    await admin?.close();
    await fx?.close();
  });

  it('lists the tools with their hints: setting a mode and cancelling are destructive', async () => {
    const { tools } = await admin.listTools();
    const hints = (name: string) => {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).to.not.equal(undefined);
      const { readOnlyHint, destructiveHint } = tool!.annotations ?? {};
      return { readOnlyHint, destructiveHint };
    };
    const read = { readOnlyHint: true, destructiveHint: false };
    const destructive = { readOnlyHint: false, destructiveHint: true };
    expect(hints('chats_mode_get')).to.deep.equal(read);
    expect(hints('chats_mode_set')).to.deep.equal(destructive);
    expect(hints('messages_scheduled')).to.deep.equal(read);
    expect(hints('messages_cancel')).to.deep.equal(destructive);
    expect(hints('messages_reschedule')).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(hints('schedules_list')).to.deep.equal(read);
    const send = tools.find((t) => t.name === 'messages_send')!;
    expect(Object.keys(send.inputSchema.properties ?? {})).to.include('sendAt');
  });

  it('sets a chat human and reads it back; REST agrees; bad mode and other clients refused', async () => {
    const set = bodyOf<{ mode: string; by: string }>(
      await admin.callTool({
        name: 'chats_mode_set',
        arguments: { chatId: CONTACT, mode: 'human' },
      }),
    );
    expect(set).to.include({ mode: 'human' });
    const got = bodyOf<{ mode: string; chatId: string }>(
      await admin.callTool({ name: 'chats_mode_get', arguments: { chatId: CONTACT } }),
    );
    expect(got).to.deep.equal(set);
    const rest = await fetch(`${fx.url}/api/v1/chats/${CONTACT_ID}/mode`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(await rest.json()).to.deep.equal(set);
    const bad = await admin.callTool({
      name: 'chats_mode_set',
      arguments: { chatId: CONTACT, mode: 'asleep' },
    });
    expect(errorOf(bad).code).to.equal('VALIDATION_FAILED');
    expect(errorOf(bad).issues?.map((i) => i.path)).to.deep.equal(['mode']);
    const badChat = await admin.callTool({
      name: 'chats_mode_get',
      arguments: { chatId: 'not a chat' },
    });
    expect(errorOf(badChat).code).to.equal('INVALID_CHAT_ID');
    const forbidden = await scoped.callTool({
      name: 'chats_mode_set',
      arguments: { client: 'bot', chatId: CONTACT, mode: 'bot' },
    });
    expect(errorOf(forbidden).code).to.equal('FORBIDDEN');
    expect((await fx.sdk.chats.mode('bot', CONTACT)).mode).to.equal('human');
    bodyOf(
      await admin.callTool({ name: 'chats_mode_set', arguments: { chatId: CONTACT, mode: 'bot' } }),
    );
    expect((await fx.sdk.chats.mode('bot', CONTACT)).mode).to.equal('bot');
  });

  it('schedules a send, lists, moves and cancels it: it never reaches the phone', async () => {
    const text = 'a reminder for tomorrow';
    const at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, '.000Z');
    const accepted = bodyOf<{ id: string; status: string; sendAt: string }>(
      await admin.callTool({
        name: 'messages_send',
        arguments: { chatId: CONTACT, content: text, sendAt: at },
      }),
    );
    expect(accepted).to.include({ status: 'scheduled', sendAt: at });
    const listed = bodyOf<{ items: { id: string; status: string }[] }>(
      await admin.callTool({ name: 'messages_scheduled', arguments: {} }),
    );
    expect(listed.items.map((i) => [i.id, i.status])).to.deep.include([accepted.id, 'scheduled']);
    // another client's token sees none of it
    const hidden = bodyOf<{ items: unknown[] }>(
      await scoped.callTool({ name: 'messages_scheduled', arguments: {} }),
    );
    expect(hidden.items).to.deep.equal([]);
    const notFound = await scoped.callTool({
      name: 'messages_cancel',
      arguments: { id: accepted.id },
    });
    expect(errorOf(notFound).code).to.equal('MESSAGE_NOT_FOUND');
    const later = new Date(Date.now() + 7_200_000).toISOString().replace(/\.\d+Z$/, '.000Z');
    const moved = bodyOf<{ status: string; sendAt: string }>(
      await admin.callTool({
        name: 'messages_reschedule',
        arguments: { id: accepted.id, sendAt: later },
      }),
    );
    expect(moved).to.include({ status: 'scheduled', sendAt: later });
    const badTime = await admin.callTool({
      name: 'messages_reschedule',
      arguments: { id: accepted.id, sendAt: 'tomorrow' },
    });
    expect(errorOf(badTime).code).to.equal('VALIDATION_FAILED');
    expect(errorOf(badTime).issues?.map((i) => i.path)).to.deep.equal(['sendAt']);
    const cancelled = bodyOf<{ status: string }>(
      await admin.callTool({ name: 'messages_cancel', arguments: { id: accepted.id } }),
    );
    expect(cancelled.status).to.equal('cancelled');
    // cancelling again answers the same (idempotent); moving it now is refused
    const again = bodyOf<{ status: string }>(
      await admin.callTool({ name: 'messages_cancel', arguments: { id: accepted.id } }),
    );
    expect(again.status).to.equal('cancelled');
    const tooLate = await admin.callTool({
      name: 'messages_reschedule',
      arguments: { id: accepted.id, sendAt: later },
    });
    expect(errorOf(tooLate).code).to.equal('MESSAGE_NOT_SCHEDULED');
    const none = bodyOf<{ items: { id: string }[] }>(
      await admin.callTool({ name: 'messages_scheduled', arguments: { client: 'bot' } }),
    );
    expect(none.items.map((i) => i.id)).to.not.include(accepted.id);
    expect(fx.sdk.simulator.phone(CONTACT).inbox.filter((m) => m.body === text)).to.have.length(0);
  });

  it('lists the recurring jobs as GET /api/v1/schedules does', async () => {
    const listed = bodyOf<{ items: unknown[] }>(
      await admin.callTool({ name: 'schedules_list', arguments: {} }),
    );
    const rest = await fetch(`${fx.url}/api/v1/schedules`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(listed.items).to.deep.equal(await rest.json());
  });
});
