/**
 * The little of vCard (RFC 6350 / 2426) that WhatsApp contact cards use: `FN` for the name and
 * `TEL;…waid=<digits>:+<number>` for a WhatsApp number. Shared by both engines: what a received
 * card says (`parseVCard`) and the card WhatsApp makes for a user (`userVCard`).
 */
import type { ContactCard } from './ports/messages.js';

/** Unfolds continuation lines (a line starting with a space or tab continues the previous one). */
function lines(vcard: string): string[] {
  return vcard.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
}

const unescape = (value: string): string =>
  value.replace(/\\([,;\\nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

/** Name, WhatsApp id and phone numbers of one vCard; the name is '' when it has neither FN nor N. */
export function parseVCard(vcard: string): ContactCard {
  const card: ContactCard = { name: '', phones: [] };
  let structured = '';
  for (const line of lines(vcard)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const [property = '', ...params] = line.slice(0, colon).split(';');
    const name = property.replace(/^item\d+\./i, '').toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'FN' && !card.name) card.name = unescape(value);
    else if (name === 'N' && !structured) {
      structured = value.split(';').slice(0, 2).reverse().filter(Boolean).map(unescape).join(' ');
    } else if (name === 'TEL') {
      if (value) card.phones.push(value);
      const waid = params.map((p) => /^waid=(\d{5,20})$/i.exec(p)?.[1]).find(Boolean);
      if (waid && !card.id) card.id = `${waid}@c.us`;
    }
  }
  if (!card.name) card.name = structured;
  return card;
}

/** The card WhatsApp shares for a user: their name, and their number when it may be shown. */
export function userVCard(name: string, digits?: string): string {
  const escaped = name.replace(/([,;\\])/g, '\\$1').replace(/\n/g, '\\n');
  const tel = digits ? [`TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`] : [];
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${escaped}`, ...tel, 'END:VCARD'].join('\n');
}
