/**
 * Rewrites calls of flat client methods to their area managers (`client.rejectCall(id)` →
 * `client.calls.reject(id)`), for the areas declared in src/capabilities/. TypeScript files are
 * rewritten where the checker types the receiver as `BotClient` (so `engine.rejectCall`, a
 * simulator phone's `block` or a fake library's `getNumberId` stay); Markdown where the receiver
 * is `client`. Run `npx tsx scripts/codemod-managers.ts` and commit its output with the result.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { rewriteSources, type Edit } from './codemods/rewrite-sources.js';
import ts from 'typescript';

/** Flat method → `area.method`: one row per ported capability. */
export const RENAMES: ReadonlyMap<string, string> = new Map([
  ['rejectCall', 'calls.reject'],
  ['getContacts', 'contacts.list'],
  ['getContact', 'contacts.get'],
  ['isRegistered', 'contacts.isRegistered'],
  ['getNumberId', 'contacts.getNumberId'],
  ['getProfilePictureUrl', 'contacts.getProfilePictureUrl'],
  ['block', 'contacts.block'],
  ['unblock', 'contacts.unblock'],
  ['createGroup', 'groups.create'],
  ['getGroup', 'groups.get'],
  ['setGroupSubject', 'groups.setSubject'],
  ['setGroupDescription', 'groups.setDescription'],
  ['setGroupSettings', 'groups.setSettings'],
  ['addParticipants', 'groups.addParticipants'],
  ['removeParticipants', 'groups.removeParticipants'],
  ['promoteParticipants', 'groups.promoteParticipants'],
  ['demoteParticipants', 'groups.demoteParticipants'],
  ['getInviteCode', 'groups.getInviteCode'],
  ['revokeInvite', 'groups.revokeInvite'],
  ['joinByInvite', 'groups.join'],
  ['leaveGroup', 'groups.leave'],
  ['isGroupAdmin', 'groups.isAdmin'],
  ['markChatSeen', 'presence.markSeen'],
  ['sendPresence', 'presence.send'],
  ['setOnline', 'presence.setOnline'],
  ['sendReaction', 'messages.react'],
  ['editMessage', 'messages.edit'],
  ['deleteMessage', 'messages.delete'],
  ['getChats', 'chats.list'],
  ['getChat', 'chats.get'],
  ['fetchMessages', 'chats.messages'],
]);

function isBotClient(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(isBotClient);
  return type.getSymbol()?.getName() === 'BotClient';
}

/** Edits (position of the method name → replacement) of one TypeScript file. */
function edits(checker: ts.TypeChecker, file: ts.SourceFile): Edit[] {
  const out: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      RENAMES.has(node.expression.name.text) &&
      isBotClient(checker.getTypeAtLocation(node.expression.expression))
    ) {
      const name = node.expression.name;
      out.push([name.getStart(file), name.getEnd(), RENAMES.get(name.text) ?? name.text]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

async function main(): Promise<void> {
  let total = await rewriteSources(edits);
  const docs = (await readdir('docs', { recursive: true })).filter((f) => f.endsWith('.md'));
  for (const file of ['README.md', ...docs.map((f) => `docs/${f}`)]) {
    let count = 0;
    const text = (await readFile(file, 'utf8')).replace(
      /\bclient\.(\w+)\(/g,
      (whole, method: string) => {
        const target = RENAMES.get(method);
        if (!target) return whole;
        count += 1;
        return `client.${target}(`;
      },
    );
    if (count === 0) continue;
    await writeFile(file, text);
    total += count;
    console.log(`${file}: ${count}`);
  }
  console.log(`${total} call sites rewritten`);
}

await main();
