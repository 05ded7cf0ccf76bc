import { hash } from 'node:crypto';
import type { MemberRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import { admittedNicknameBase } from './admitted-nickname';

/** P24: who is admitted, with what their groups give them. */
export interface AdmittedPerson {
  workspaceId: string;
  platform: 'slack' | 'discord';
  senderId: string;
  displayName: string | null;
  fields: Pick<MemberRecord, 'role' | 'accessVia' | 'accessViaName'>;
}

/**
 * P24: an admitted person's member id, the same in every transaction that admits them (two first
 * messages at once make one record: the second finds the first's).
 */
export function admittedMemberId(workspaceId: string, platform: string, senderId: string): string {
  // One-shot: no Hash object per first write (the same digest as `createHash`'s).
  const hex = hash('sha256', JSON.stringify(['p24-member', workspaceId, platform, senderId]), 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * P24, M10: the member record of a person admitted by a group, made on their first write with
 * the transaction's next message (T3: no round trip of its own, no read of the workspace's
 * members) under the first free nickname offered: their platform name, with a number added
 * if it is taken (numbered on the server: only the base and the account's are sent), then
 * `<platform>-<user id>`. Returns the record as it will be if its first nickname is free
 * (`provisional`), and how to read it back as stored.
 */
export async function admitMember(
  tx: StoreTx,
  person: AdmittedPerson,
): Promise<{ provisional: Omit<MemberRecord, 'createdAt'>; readBack: () => Promise<MemberRecord> }> {
  const base = admittedNicknameBase(person.displayName, person);
  const offered = { base, account: admittedNicknameBase(null, person) };
  const fields = {
    ...person.fields,
    id: admittedMemberId(person.workspaceId, person.platform, person.senderId),
    slackUserId: person.platform === 'slack' ? person.senderId : null,
    discordUserId: person.platform === 'discord' ? person.senderId : null,
  };
  await tx.members.admitOwed(person.workspaceId, fields, offered);
  const provisional = { ...fields, workspaceId: person.workspaceId, nickname: base, githubLogin: null };
  const readBack = async () => {
    const stored = await tx.members.findByPlatformUser(person.workspaceId, person.platform, person.senderId);
    if (stored === null) throw new Error(`The admitted member ${fields.id} was not stored.`);
    return stored;
  };
  return { provisional, readBack };
}
