/**
 * Rewrites calls of the Engine port's former flat methods to its `ops` table
 * (`engine.getChats()` → `engine.ops.chats.list()`, docs/engines.md#the-engine-port). TypeScript
 * files are rewritten where the checker types the receiver as an engine (`Engine`, `WwebjsEngine`,
 * `SimulatorEngine`), so a BotClient's or a fake library's method of the same name stays; a
 * simulator phone's group actions (`phone.groups.createGroup`) get the area's new method name.
 * Markdown where the receiver is written `engine`. Only the receiver's type matters, so it runs on
 * code written against the old port after the change too (a branch merged later):
 * `npx tsx scripts/codemod-engine-ops.ts [files…]` (default: the whole program and the docs).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { rewriteSources, type Edit } from './codemods/rewrite-sources.js';
import ts from 'typescript';

/** Former Engine method → `area.method` in `engine.ops`. */
export const ENGINE_OPS: ReadonlyMap<string, string> = new Map([
  ['requestPairingCode', 'account.requestPairingCode'],
  ['checkHealth', 'account.checkHealth'],
  ['createGroup', 'groups.create'],
  ['getGroup', 'groups.get'],
  ['addParticipants', 'groups.addParticipants'],
  ['removeParticipants', 'groups.removeParticipants'],
  ['promoteParticipants', 'groups.promoteParticipants'],
  ['demoteParticipants', 'groups.demoteParticipants'],
  ['setGroupSubject', 'groups.setSubject'],
  ['setGroupDescription', 'groups.setDescription'],
  ['setGroupSettings', 'groups.setSettings'],
  ['getInviteCode', 'groups.getInviteCode'],
  ['revokeInvite', 'groups.revokeInvite'],
  ['joinByInvite', 'groups.joinByInvite'],
  ['leaveGroup', 'groups.leave'],
  ['isGroupAdmin', 'groups.isAdmin'],
  ['getChats', 'chats.list'],
  ['getChat', 'chats.get'],
  ['fetchMessages', 'chats.fetchMessages'],
  ['pinChat', 'chats.pin'],
  ['getContacts', 'contacts.list'],
  ['getContact', 'contacts.get'],
  ['getNumberId', 'contacts.getNumberId'],
  ['getProfilePictureUrl', 'contacts.getProfilePictureUrl'],
  ['setBlocked', 'contacts.setBlocked'],
  ['resolveContact', 'contacts.resolve'],
  ['rejectCall', 'calls.reject'],
  ['getQuotedMessage', 'messages.getQuoted'],
  ['react', 'actions.react'],
  ['editMessage', 'actions.edit'],
  ['deleteMessage', 'actions.delete'],
  ['markChatSeen', 'presence.markSeen'],
  ['sendChatState', 'presence.sendState'],
  ['setOnline', 'presence.setOnline'],
]);

const ENGINES = new Set(['Engine', 'WwebjsEngine', 'SimulatorEngine']);
/** Receivers that are one area already (the simulator phone's `groups`): only the name changes. */
const AREAS = new Set(['GroupOps', 'GroupEngine', 'SimGroupActions']);

function kindOf(type: ts.Type): 'engine' | 'area' | null {
  if (type.isUnion()) {
    for (const t of type.types) {
      const kind = kindOf(t);
      if (kind) return kind;
    }
    return null;
  }
  const name = type.getSymbol()?.getName() ?? '';
  if (ENGINES.has(name)) return 'engine';
  if (AREAS.has(name)) return 'area';
  return null;
}

function edits(checker: ts.TypeChecker, file: ts.SourceFile): Edit[] {
  const out: Edit[] = [];
  const visit = (node: ts.Node): void => {
    // `this.requestPairingCode` inside an engine is its own (private) method, not a caller's.
    if (
      ts.isPropertyAccessExpression(node) &&
      ENGINE_OPS.has(node.name.text) &&
      node.expression.kind !== ts.SyntaxKind.ThisKeyword
    ) {
      const target = ENGINE_OPS.get(node.name.text) ?? '';
      const kind = kindOf(checker.getTypeAtLocation(node.expression));
      const replacement =
        kind === 'engine' ? `ops.${target}` : kind === 'area' ? target.split('.')[1] : null;
      if (replacement) out.push([node.name.getStart(file), node.name.getEnd(), replacement]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

async function main(only: string[]): Promise<void> {
  let total = await rewriteSources(edits, only);
  if (only.length === 0) {
    const docs = (await readdir('docs', { recursive: true })).filter((f) => f.endsWith('.md'));
    for (const file of ['README.md', ...docs.map((f) => `docs/${f}`)]) {
      let count = 0;
      const text = (await readFile(file, 'utf8')).replace(
        /\bengine\.(\w+)\b/g,
        (whole, method: string) => {
          const target = ENGINE_OPS.get(method);
          if (!target) return whole;
          count += 1;
          return `engine.ops.${target}`;
        },
      );
      if (count === 0) continue;
      await writeFile(file, text);
      total += count;
      console.log(`${file}: ${count}`);
    }
  }
  console.log(`${total} sites rewritten`);
}

await main(process.argv.slice(2));
