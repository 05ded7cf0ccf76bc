import type { MemberRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import { admittedNicknameBase, nicknameCandidates, nicknameStem } from './admitted-nickname';

/** How many nicknames one insert offers, and how many inserts a first write tries. */
const OFFERED = 8;
const ATTEMPTS = 4;

/** P24: who is admitted, with what their groups give them. */
export interface AdmittedPerson {
  workspaceId: string;
  platform: 'slack' | 'discord';
  senderId: string;
  displayName: string | null;
  fields: Pick<MemberRecord, 'role' | 'accessVia' | 'accessViaName'>;
}

/**
 * P24, M10: the member record of a person admitted by a group, made on their first write under
 * a nickname no member has (their platform name, a number added if it is taken). One statement
 * offers several nicknames and takes the first free one, so no read of the workspace's members
 * comes first. When another transaction took the offered nicknames, or made this person's
 * record (two first messages at once), meanwhile: that record is theirs, or the nicknames taken
 * are read (only those starting like theirs) and others offered.
 */
export async function insertAdmittedMember(tx: StoreTx, person: AdmittedPerson): Promise<MemberRecord> {
  const base = admittedNicknameBase(person.displayName, person);
  const fields = {
    ...person.fields,
    slackUserId: person.platform === 'slack' ? person.senderId : null,
    discordUserId: person.platform === 'discord' ? person.senderId : null,
  };
  let taken: ReadonlySet<string> = new Set();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const nicknames = nicknameCandidates(base, taken, OFFERED);
    const inserted = await tx.members.insertUnderFreeNickname(person.workspaceId, fields, nicknames);
    if (inserted !== null) return inserted;
    const linked = await tx.members.findByPlatformUser(person.workspaceId, person.platform, person.senderId);
    if (linked !== null) return linked;
    taken = new Set(await tx.members.nicknamesStartingWith(person.workspaceId, nicknameStem(base)));
  }
  throw new Error(`No free nickname was found for ${person.platform} user ${person.senderId}.`);
}
