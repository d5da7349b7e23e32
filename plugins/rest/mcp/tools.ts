/**
 * Every MCP tool of wakit, by group. The extension point: a feature that gives agents more tools
 * (chat mode and handoff, scheduled messages) writes them as `McpTool`s (mcp-tool.ts) in its own
 * module under plugins/rest/mcp/ and adds one line here; `tools/list`, the annotations, argument
 * checks and coded errors come with it (test/plugins/rest/mcp-http.test.ts checks the names).
 */
import { capabilityTools } from './capability-tools.js';
import { conversationTools } from './conversation-tools.js';
import { handoffTools, scheduleTools } from './handoff-schedule-tools.js';
import type { McpTool } from './mcp-tool.js';
import { sendTools } from './send-tools.js';

export const TOOL_GROUPS = {
  /** One per capability declaration (src/capabilities/). */
  capabilities: capabilityTools(),
  /** messages_send, messages_status. */
  sends: sendTools,
  /** conversations_*, chat_state_*. */
  conversations: conversationTools,
  /** chats_mode_get, chats_mode_set. */
  handoff: handoffTools,
  /** messages_scheduled, messages_cancel, messages_reschedule, schedules_list (sendAt: sends). */
  scheduling: scheduleTools,
} as const satisfies Record<string, readonly McpTool[]>;

/** Every tool, by name (unique: checked here). */
export const MCP_TOOLS: ReadonlyMap<string, McpTool> = (() => {
  const byName = new Map<string, McpTool>();
  for (const tool of Object.values(TOOL_GROUPS).flat()) {
    if (byName.has(tool.name)) throw new Error(`MCP tool ${tool.name} is declared twice`);
    byName.set(tool.name, tool);
  }
  return byName;
})();
