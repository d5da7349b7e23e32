/** The people and groups the double's network holds (what a test's phone side talks as). */
export interface DoublePerson {
  /** Phone id, `<digits>@c.us`. */
  pn: string;
  /** LID, `<digits>@lid`, when WhatsApp knows one. */
  lid?: string;
  pushname?: string;
  /** Saved contact name (makes `isMyContact`). */
  name?: string;
}

export interface DoubleGroup {
  id: string;
  subject: string;
  desc?: string;
  owner?: string;
  announce?: boolean;
  restrict?: boolean;
  lidAddressing?: boolean;
  participants: Array<{ id: string; isAdmin?: boolean; isSuperAdmin?: boolean }>;
}

export interface DoubleWorld {
  /** The account the phone links (scans the QR as). */
  me: Required<Pick<DoublePerson, 'pn' | 'lid' | 'pushname'>>;
  users: DoublePerson[];
  groups: DoubleGroup[];
}

export const BOT: DoubleWorld['me'] = {
  pn: '15550000001@c.us',
  lid: '90000000000001@lid',
  pushname: 'Wakit Bot',
};
export const ALICE: DoublePerson = {
  pn: '15550000002@c.us',
  lid: '90000000000002@lid',
  pushname: 'Alice',
  name: 'Alice A.',
};
/** Known to WhatsApp by LID only until asked (a LID sender). */
export const BOB: DoublePerson = {
  pn: '15550000003@c.us',
  lid: '90000000000003@lid',
  pushname: 'Bob',
};
/** A well-formed number nobody uses. */
export const NOBODY = '15559999999@c.us';
/** The bot is a plain member of this admins-only group. */
export const ANNOUNCE_GROUP: DoubleGroup = {
  id: '120363000000000001@g.us',
  subject: 'Announcements',
  announce: true,
  participants: [{ id: ALICE.pn, isAdmin: true, isSuperAdmin: true }, { id: BOT.pn }],
};
/** An open group the bot administers, with a LID-addressed member. */
export const TEAM_GROUP: DoubleGroup = {
  id: '120363000000000002@g.us',
  subject: 'Team',
  lidAddressing: true,
  participants: [
    { id: BOT.pn, isAdmin: true, isSuperAdmin: true },
    { id: ALICE.pn },
    { id: BOB.lid ?? BOB.pn },
  ],
};

export const DEFAULT_WORLD: DoubleWorld = {
  me: BOT,
  users: [ALICE, BOB],
  groups: [ANNOUNCE_GROUP, TEAM_GROUP],
};
