import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // P24, M10: the member record of a person admitted by a platform group, made with the routing
  // transaction's last message (T3: no round trip of its own), so it must succeed on the server
  // without the client looking: the first offered nickname no member has (case ignored); when
  // another transaction took it meanwhile, the next; when another transaction made this
  // person's record meanwhile (the same id, derived from the account), that record stands.
  // With every offered nickname taken, one made of the member's id. Only an explicit entry
  // linked to the same account meanwhile fails it (the transaction is routed again, T4).
  `CREATE FUNCTION summon_admit_member(
     member_id uuid, workspace uuid, member_role text, slack_user text, discord_user text,
     via text, via_name text, offered text[]) RETURNS void
     LANGUAGE plpgsql AS $$
     DECLARE
       nickname_offered text;
     BEGIN
       FOREACH nickname_offered IN ARRAY offered || ('m-' || replace(member_id::text, '-', '')) LOOP
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

const DOWN = ['DROP FUNCTION summon_admit_member(uuid, uuid, text, text, text, text, text, text[])'];

/** P24: an admitted person's member record made without a round trip of its own. */
export class AdmitMember1796600510000 implements MigrationInterface {
  readonly name = 'AdmitMember1796600510000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
