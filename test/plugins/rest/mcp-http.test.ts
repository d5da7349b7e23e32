// The MCP server over Streamable HTTP on the REST plugin (POST /api/v1/mcp): the official SDK's
// client against a real REST server on loopback, the simulator behind it. Tools come from the
// capability table (names, schemas, annotations), a send reaches the phone once, bad input is a
// coded tool error, no token is 401 and a token scoped to another client is FORBIDDEN.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { BotClient } from '../../../src/index.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  CONTACT_ID,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';
import { waitUntil } from '../../helpers/wait-until.js';

async function connect(fx: RestFixture, token: string): Promise<Client> {
  const client = new Client({ name: 'wakit-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${fx.url}/api/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

type Coded = { error: { code: string; issues?: { path: string }[] } };
const errorOf = (result: CallToolResult) => (result.structuredContent as Coded).error;

describe('MCP over Streamable HTTP (POST /api/v1/mcp)', function () {
  this.timeout(30_000);
  let fx: RestFixture;
  let admin: Client;
  const inboxOf = (text: string) =>
    fx.sdk.simulator.phone(CONTACT).inbox.filter((m) => m.body === text);

  before(async () => {
    fx = await restFixture({ start: true });
    await fx.link('bot');
    admin = await connect(fx, ADMIN_TOKEN);
  });
  after(async () => {
    await admin?.close();
    await fx?.close();
  });

  it('lists one tool per capability declaration, with its input fields and annotations', async () => {
    const { tools } = await admin.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const capability of BotClient.capabilities) {
      const tool = byName.get(capability.name.replace('.', '_'));
      expect(tool, capability.name).to.not.equal(undefined);
      const fields = Object.keys(capability.input.shape);
      const extra = capability.mode === 'queued' ? ['client', 'idempotencyKey'] : ['client'];
      expect(Object.keys(tool!.inputSchema.properties ?? {})).to.have.members([
        ...fields,
        ...extra,
      ]);
      expect(tool!.inputSchema).to.include({ additionalProperties: false });
    }
    for (const name of [
      'messages_send',
      'messages_status',
      'conversations_list',
      'conversations_get',
      'conversations_start',
      'conversations_end',
      'chat_state_read',
      'chat_state_erase',
    ]) {
      expect(byName.has(name), name).to.equal(true);
    }
    expect(tools).to.have.length(BotClient.capabilities.length + 14);
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint } = byName.get(name)!.annotations ?? {};
      return { readOnlyHint, destructiveHint };
    };
    expect(hints('chats_list')).to.deep.equal({ readOnlyHint: true, destructiveHint: false });
    expect(hints('contacts_isRegistered')).to.deep.equal({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(hints('chats_pin')).to.deep.equal({ readOnlyHint: false, destructiveHint: false });
    expect(hints('messages_send')).to.deep.equal({ readOnlyHint: false, destructiveHint: false });
    for (const name of ['contacts_block', 'groups_leave', 'messages_delete', 'chat_state_erase']) {
      expect(hints(name), name).to.deep.equal({ readOnlyHint: false, destructiveHint: true });
    }
  });

  it('sends a text that the phone receives once (a retry with the same key is the same send)', async () => {
    const text = 'hello from an agent';
    const args = { chatId: CONTACT, content: text, idempotencyKey: 'mcp-send-1' };
    const first = await admin.callTool({ name: 'messages_send', arguments: args });
    expect(first.isError ?? false, JSON.stringify(first)).to.equal(false);
    const accepted = first.structuredContent as { id: string; status: string; chatId: string };
    expect(accepted).to.include({ status: 'queued', chatId: CONTACT_ID, client: 'bot' });
    const again = await admin.callTool({ name: 'messages_send', arguments: args });
    expect((again.structuredContent as { id: string }).id).to.equal(accepted.id);
    await waitUntil(() => inboxOf(text).length > 0);
    const status = await admin.callTool({
      name: 'messages_status',
      arguments: { id: accepted.id },
    });
    expect(['sent', 'delivered', 'read']).to.include(
      (status.structuredContent as { status: string }).status,
    );
    expect(inboxOf(text)).to.have.length(1);
  });

  it('answers bad input with a coded tool error, never a stack', async () => {
    const badChat = await admin.callTool({
      name: 'messages_send',
      arguments: { chatId: 'not a chat', content: 'x' },
    });
    expect(badChat.isError).to.equal(true);
    expect(errorOf(badChat as CallToolResult).code).to.equal('INVALID_CHAT_ID');
    const unknownField = await admin.callTool({
      name: 'chats_pin',
      arguments: { chatId: CONTACT_ID, pinned: true },
    });
    expect(unknownField.isError).to.equal(true);
    const error = errorOf(unknownField as CallToolResult);
    expect(error.code).to.equal('VALIDATION_FAILED');
    const text = (unknownField.content as { text: string }[])[0].text;
    expect(text).to.match(/^VALIDATION_FAILED: /);
    expect(text).to.not.match(/\n\s+at /);
    const badUrl = await admin.callTool({
      name: 'messages_send',
      arguments: { chatId: CONTACT, content: { type: 'image', url: 'file:///etc/passwd' } },
    });
    expect(errorOf(badUrl as CallToolResult).code).to.equal('VALIDATION_FAILED');
  });

  it('reads resources: the clients and a chat’s recent messages', async () => {
    const text = 'a message to read back';
    await admin.callTool({ name: 'messages_send', arguments: { chatId: CONTACT, content: text } });
    await waitUntil(() => inboxOf(text).length > 0);
    const clients = await admin.readResource({ uri: 'wakit://clients' });
    const listed = JSON.parse((clients.contents[0] as { text: string }).text) as {
      clients: { name: string; state: string }[];
    };
    expect(listed.clients.map((c) => c.name)).to.have.members(['bot', 'other']);
    const uri = `wakit://clients/bot/chats/${encodeURIComponent(CONTACT_ID)}/messages`;
    const read = await admin.readResource({ uri });
    const { items } = JSON.parse((read.contents[0] as { text: string }).text) as {
      items: { body: string }[];
    };
    expect(items.map((m) => m.body)).to.include(text);
    const { resourceTemplates } = await admin.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).to.include(
      'wakit://clients/{client}/chats/{chatId}/messages',
    );
  });

  it('refuses a request without a token (401) and a call outside the token’s clients', async () => {
    const refused = new Client({ name: 'anonymous', version: '1.0.0' });
    let failure: unknown;
    try {
      await refused.connect(new StreamableHTTPClientTransport(new URL(`${fx.url}/api/v1/mcp`)));
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.match(/401/);
    const raw = await fetch(`${fx.url}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).to.equal(401);
    expect(((await raw.json()) as { code: string }).code).to.equal('UNAUTHORIZED');

    const scoped = await connect(fx, SCOPED_TOKEN);
    try {
      const text = 'not from a scoped token';
      const send = await scoped.callTool({
        name: 'messages_send',
        arguments: { client: 'bot', chatId: CONTACT, content: text },
      });
      expect(errorOf(send as CallToolResult).code).to.equal('FORBIDDEN');
      const defaultClient = await scoped.callTool({
        name: 'chats_list',
        arguments: {},
      });
      expect(errorOf(defaultClient as CallToolResult).code).to.equal('FORBIDDEN');
      const clients = await scoped.readResource({ uri: 'wakit://clients' });
      expect((clients.contents[0] as { text: string }).text).to.not.include('"bot"');
      let resourceError: unknown;
      try {
        await scoped.readResource({ uri: 'wakit://clients/bot/chats' });
      } catch (error) {
        resourceError = error;
      }
      expect(String(resourceError)).to.include('FORBIDDEN');
      expect(inboxOf(text)).to.have.length(0);
    } finally {
      await scoped.close();
    }
  });

  it('answers GET with 405 and a request that does not accept JSON and SSE with 406', async () => {
    const get = await fx.request('GET', '/api/v1/mcp');
    expect(get.status).to.equal(405);
    const res = await fx.request('POST', '/api/v1/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json' },
    });
    expect(res.status).to.equal(406);
    expect((res.json as { code: string }).code).to.equal('NOT_ACCEPTABLE');
  });
});
