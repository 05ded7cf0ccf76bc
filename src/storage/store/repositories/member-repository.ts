import type { EntityManager, FindOptionsWhere } from 'typeorm';
import { ValidationError } from '../../../core/errors';
import type { MemberRecord } from '../../../core/model/records';
import type { MemberRepository } from '../../../core/ports/store';
import { MemberEntity, type MemberRow } from '../../entities/member.entity';
import { RunnerState } from '../../runner-state';
import { isUuid } from '../ids';
import { deferStatement } from '../pending-statements';
import { type PreparedCall, PreparedStatement } from '../prepared-statement';
import { sqlLiteral, textLiteral } from '../statements-together';
import { forgetAdmitted, forgetsByItself } from '../transaction-read-memo';
import { updateById } from '../update-by-id';

/**
 * M10: `nickname` starts with `prefix` (folded, lower case), case ignored: one range of the
 * `uq_members_nickname` index (`text_pattern_ops`: byte order, whatever the collation;
 * U+10FFFF sorts after every character a nickname holds).
 */
export const nicknameStarts = (nickname: string, prefix: string): string =>
  `lower(${nickname}) ~>=~ ${prefix} AND lower(${nickname}) ~<~ (${prefix} || chr(1114111))`;

/**
 * P24, M10: an admitted person's record, owed with the transaction's next message, given the
 * base nickname ($8) and the account's ($9) only (`NicknameOffer`). Most first messages find
 * the base free: one plain insert; only when it inserted nothing (the nickname taken, the
 * record there, the account linked) does `summon_admit_member` (migration `AdmitMemberNumbers`)
 * number the base, try the rest and decide, in the same statement. Warmed at start (T3).
 */
export const ADMIT_MEMBER = new PreparedStatement(
  ['uuid', 'uuid', 'text', 'text', 'text', 'text', 'text', 'text', 'text'],
  `WITH made AS (
     INSERT INTO members (id, workspace_id, nickname, role, slack_user_id, discord_user_id,
                          access_via, access_via_name)
     VALUES ($1, $2, $8, $3, $4, $5, $6, $7)
     ON CONFLICT DO NOTHING RETURNING id)
   SELECT CASE WHEN EXISTS (SELECT 1 FROM made) THEN NULL
               ELSE summon_admit_member($1, $2, $3, $4, $5, $6, $7, $8, $9) END AS admitted`,
);

/**
 * P24, M10: `ADMIT_MEMBER` for the several people a transaction admits ($1: a JSON array, one
 * array each, its values in `ADMIT_MEMBER`'s order: no key names on the wire),
 * owed with its next message, in one statement however many there are (a burst of new people
 * routed in one batch; each with its base nickname and the account's). Most find their base
 * free: one plain insert for all; only those it inserted nothing for (the nickname taken, in the
 * table or by someone earlier in the array; the record there; the account linked) go through
 * `summon_admit_member` (migration `AdmitMemberNumbers`), which numbers the base, tries the
 * rest and decides, in the array's order. Warmed at start (T3).
 */
export const ADMIT_MEMBERS = new PreparedStatement(
  ['jsonb'],
  `WITH person AS (
     SELECT (p->>0)::uuid AS id, (p->>1)::uuid AS workspace_id, p->>2 AS role,
            p->>3 AS slack_user_id, p->>4 AS discord_user_id, p->>5 AS access_via,
            p->>6 AS access_via_name, p->>7 AS base, p->>8 AS account_nickname, n
     FROM jsonb_array_elements($1) WITH ORDINALITY AS given(p, n)),
   made AS (
     INSERT INTO members (id, workspace_id, nickname, role, slack_user_id, discord_user_id,
                          access_via, access_via_name)
     SELECT id, workspace_id, base, role, slack_user_id, discord_user_id, access_via, access_via_name
     FROM person ORDER BY n
     ON CONFLICT DO NOTHING RETURNING id)
   SELECT summon_admit_member(id, workspace_id, role, slack_user_id, discord_user_id, access_via,
                              access_via_name, base, account_nickname)
   FROM person WHERE id NOT IN (SELECT id FROM made) ORDER BY n`,
);
// P24: an admission forgets what it changes itself (`forgetAdmitted`): only what names the person.
forgetsByItself(ADMIT_MEMBER.text);
forgetsByItself(ADMIT_MEMBERS.text);

/** One admitted person, as `ADMIT_MEMBERS` takes them. */
interface OwedAdmission {
  id: string;
  workspaceId: string;
  role: string;
  slackUserId: string | null;
  discordUserId: string | null;
  accessVia: string | null;
  accessViaName: string | null;
  /** M10: the base nickname, and the account's (`NicknameOffer`). */
  base: string;
  account: string;
}

/**
 * The admissions of a transaction owed in one `ADMIT_MEMBERS` call: its argument is read when
 * the call is sent, so admissions made until then join it; after, the next starts another.
 */
class OwedAdmissions {
  private readonly people: OwedAdmission[] = [];
  private sent: string[] | null = null;

  constructor(first: OwedAdmission) {
    this.people.push(first);
  }

  /** Whether `person` joined the call (false: it went out already). */
  join(person: OwedAdmission): boolean {
    if (this.sent !== null) return false;
    this.people.push(person);
    return true;
  }

  /** Read when sent (the statement, then its arguments): one person alone goes as `ADMIT_MEMBER`. */
  call(): PreparedCall {
    const owed = this;
    return {
      get prepared() {
        return owed.people.length === 1 ? ADMIT_MEMBER : ADMIT_MEMBERS;
      },
      get args() {
        owed.sent ??= owed.arguments();
        return owed.sent;
      },
    };
  }

  private arguments(): string[] {
    const [alone, ...others] = this.people;
    if (alone === undefined || others.length > 0)
      return [textLiteral(JSON.stringify(this.people.map(values)))];
    return [
      sqlLiteral(alone.id),
      sqlLiteral(alone.workspaceId),
      textLiteral(alone.role),
      nullableText(alone.slackUserId),
      nullableText(alone.discordUserId),
      nullableText(alone.accessVia),
      nullableText(alone.accessViaName),
      textLiteral(alone.base),
      textLiteral(alone.account),
    ];
  }
}

/** A person's values in `ADMIT_MEMBER`'s order, as `ADMIT_MEMBERS` reads each (`p->>0` …). */
const values = (p: OwedAdmission): (string | null)[] => [
  p.id,
  p.workspaceId,
  p.role,
  p.slackUserId,
  p.discordUserId,
  p.accessVia,
  p.accessViaName,
  p.base,
  p.account,
];

const nullableText = (value: string | null): string => (value === null ? 'NULL' : textLiteral(value));

const owedAdmissions = new RunnerState<OwedAdmissions>();

export const toMemberRecord = (row: MemberRow): MemberRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  nickname: row.nickname,
  role: row.role,
  slackUserId: row.slackUserId,
  discordUserId: row.discordUserId,
  accessVia: row.accessVia ?? null,
  accessViaName: row.accessViaName ?? null,
  githubLogin: row.githubLogin ?? null,
  createdAt: row.createdAt,
});

export const memberRepository = (manager: EntityManager): MemberRepository => {
  const rows = manager.getRepository(MemberEntity);
  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toMemberRecord);
    },
    async findByNickname(workspaceId, nickname) {
      if (!isUuid(workspaceId)) return null;
      // M10: nicknames match case-insensitively.
      const row = await rows
        .createQueryBuilder('member')
        .where('member.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(member.nickname) = lower(:nickname)', { nickname })
        .getOne();
      return row ? toMemberRecord(row) : null;
    },
    async named(workspaceId, nicknames) {
      if (!isUuid(workspaceId) || nicknames.length === 0) return [];
      // M10: case ignored; one probe each of the unique nickname index.
      const found = await rows
        .createQueryBuilder('member')
        .where('member.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(member.nickname) IN (:...folded)', {
          folded: [...new Set(nicknames.map((n) => n.toLowerCase()))],
        })
        .orderBy('member.createdAt', 'ASC')
        .addOrderBy('member.seq', 'ASC')
        .getMany();
      return found.map(toMemberRecord);
    },
    async findByPlatformUser(workspaceId, platform, userId) {
      if (!isUuid(workspaceId)) return null;
      // P8: a platform account authorizes only through the member it is linked to.
      const where = ((): FindOptionsWhere<MemberRow> | null => {
        switch (platform) {
          case 'slack':
            return { workspaceId, slackUserId: userId };
          case 'discord':
            return { workspaceId, discordUserId: userId };
          default:
            return null;
        }
      })();
      // P20: GitHub logins match case-insensitively.
      if (platform === 'github') {
        const member = await rows
          .createQueryBuilder('member')
          .where('member.workspaceId = :workspaceId', { workspaceId })
          .andWhere('lower(member.githubLogin) = lower(:login)', { login: userId })
          .getOne();
        return member ? toMemberRecord(member) : null;
      }
      const row = where ? await rows.findOneBy(where) : null;
      return row ? toMemberRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      const row = rows.create({
        workspaceId,
        nickname: fields.nickname,
        role: fields.role,
        slackUserId: fields.slackUserId,
        discordUserId: fields.discordUserId,
        accessVia: fields.accessVia ?? null,
        accessViaName: fields.accessViaName ?? null,
        githubLogin: fields.githubLogin ?? null,
      });
      return toMemberRecord(await rows.save(row));
    },
    async admitOwed(workspaceId, fields, offered) {
      if (!isUuid(workspaceId) || !isUuid(fields.id))
        throw new ValidationError(
          `Not a member or workspace id: ${JSON.stringify([fields.id, workspaceId])}.`,
        );
      const runner = manager.queryRunner;
      const account = fields.slackUserId ?? fields.discordUserId;
      // With every offered nickname taken, the record's is made of its id (`summon_admit_member`).
      const fallback = `m-${fields.id.replaceAll('-', '')}`;
      // M10: the numbered nicknames are the server's to derive (`summon_admit_member`); a read of
      // any of them is forgotten all the same (`AdmittedAccount.base`).
      if (account !== null)
        forgetAdmitted(runner, { account, base: offered.base, others: [offered.account, fallback] });
      const person: OwedAdmission = {
        id: fields.id,
        workspaceId,
        role: fields.role,
        slackUserId: fields.slackUserId,
        discordUserId: fields.discordUserId,
        accessVia: fields.accessVia ?? null,
        accessViaName: fields.accessViaName ?? null,
        base: offered.base,
        account: offered.account,
      };
      // T3: a batch's admissions go as one statement, with the transaction's next message.
      if (runner !== undefined && owedAdmissions.get(runner)?.join(person) === true) return;
      const owed = new OwedAdmissions(person);
      if (runner !== undefined) owedAdmissions.set(runner, owed);
      await deferStatement(manager, owed.call());
    },
    async update(id, patch) {
      await updateById(
        rows,
        id,
        patch,
        ['role', 'slackUserId', 'discordUserId', 'githubLogin', 'accessVia', 'accessViaName'],
        'member',
      );
    },
  };
};
