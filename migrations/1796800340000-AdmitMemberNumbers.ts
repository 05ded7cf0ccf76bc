import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  'DROP FUNCTION summon_admit_member(uuid, uuid, text, text, text, text, text, text[])',
  // P24, M10: as before (migration `AdmitMember`: the first nickname no member has, case
  // ignored; a record another transaction made meanwhile under the same id stands; one made of
  // the id when all are taken; an account linked to another member fails it), but the client
  // sends only the base and the account's nickname: the numbered ones are derived here, in the
  // order `nicknameCandidates` (src/core/members/admitted-nickname.ts) gives them — the base,
  // then `-2` … `-16` added to the base cut to 39 characters with the number — then the
  // account's, then the id's. Most first writes never get here (the base is free).
  `CREATE FUNCTION summon_admit_member(
     member_id uuid, workspace uuid, member_role text, slack_user text, discord_user text,
     via text, via_name text, base text, account_nickname text) RETURNS void
     LANGUAGE plpgsql AS $$
     DECLARE
       nickname_offered text;
     BEGIN
       FOR n IN 1 .. 18 LOOP
         nickname_offered := CASE
           WHEN n = 1 THEN base
           WHEN n <= 16 THEN left(base, 39 - length('-' || n)) || '-' || n
           WHEN n = 17 THEN account_nickname
           ELSE 'm-' || replace(member_id::text, '-', '') END;
         CONTINUE WHEN nickname_offered IS NULL;
         -- No exception block (a subtransaction each): a conflict (the nickname taken, or this
         -- person's record there) inserts nothing, and says so.
         INSERT INTO members (id, workspace_id, nickname, role, slack_user_id, discord_user_id,
                              access_via, access_via_name)
           VALUES (member_id, workspace, nickname_offered, member_role, slack_user, discord_user,
                   via, via_name)
           ON CONFLICT DO NOTHING;
         IF FOUND OR EXISTS (SELECT 1 FROM members WHERE id = member_id) THEN RETURN; END IF;
       END LOOP;
       RAISE EXCEPTION USING ERRCODE = 'unique_violation',
         CONSTRAINT = CASE WHEN slack_user IS NULL THEN 'uq_members_discord_user' ELSE 'uq_members_slack_user' END,
         MESSAGE = 'The admitted person''s account is linked to another member.';
     END
     $$`,
];

const DOWN = [
  'DROP FUNCTION summon_admit_member(uuid, uuid, text, text, text, text, text, text, text)',
  // The function as migration `AdmitMember` made it: every nickname offered by the client.
  `CREATE FUNCTION summon_admit_member(
     member_id uuid, workspace uuid, member_role text, slack_user text, discord_user text,
     via text, via_name text, offered text[]) RETURNS void
     LANGUAGE plpgsql AS $$
     DECLARE
       nickname_offered text;
     BEGIN
       FOREACH nickname_offered IN ARRAY offered || ('m-' || replace(member_id::text, '-', '')) LOOP
         INSERT INTO members (id, workspace_id, nickname, role, slack_user_id, discord_user_id,
                              access_via, access_via_name)
           VALUES (member_id, workspace, nickname_offered, member_role, slack_user, discord_user,
                   via, via_name)
           ON CONFLICT DO NOTHING;
         IF FOUND OR EXISTS (SELECT 1 FROM members WHERE id = member_id) THEN RETURN; END IF;
       END LOOP;
       RAISE EXCEPTION USING ERRCODE = 'unique_violation',
         CONSTRAINT = CASE WHEN slack_user IS NULL THEN 'uq_members_discord_user' ELSE 'uq_members_slack_user' END,
         MESSAGE = 'The admitted person''s account is linked to another member.';
     END
     $$`,
];

/** P24, M10: `summon_admit_member` numbers the base nickname itself (the client sends two nicknames, not 17). */
export class AdmitMemberNumbers1796800340000 implements MigrationInterface {
  readonly name = 'AdmitMemberNumbers1796800340000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
