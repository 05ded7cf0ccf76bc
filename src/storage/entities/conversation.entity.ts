import { EntitySchema } from 'typeorm';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import { createdAt, creationSeq, oneOf, primaryId, sameWorkspaceForeignKey, text, uuid } from './columns';

/** P2: one thread of a space. N4: `createdByAgentId` marks a conversation an agent created. */
export interface ConversationRow {
  id: string;
  seq: string;
  workspaceId: string;
  spaceId: string;
  platform: Platform;
  platformThreadRef: string | null;
  title: string;
  ownerAgentId: string | null;
  createdByAgentId: string | null;
  createdAt: Date;
}

export const ConversationEntity = new EntitySchema<ConversationRow>({
  name: 'conversations',
  columns: {
    id: primaryId('conversations'),
    seq: creationSeq,
    // T3: the key is (id, workspace_id), one index for every look-up by id and the tenant-scoped keys.
    workspaceId: { ...uuid(), primary: true, primaryKeyConstraintName: 'pk_conversations' },
    spaceId: uuid(),
    platform: text(),
    platformThreadRef: text({ nullable: true }),
    title: text({ default: '' }),
    ownerAgentId: uuid(true),
    createdByAgentId: uuid(true),
    createdAt,
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_conversations_space', 'spaceId', 'spaces', 'CASCADE', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_conversations_owner_agent', 'ownerAgentId', 'agents', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_conversations_created_by_agent', 'createdByAgentId', 'agents', 'SET NULL', {
      checkedAtCommit: true,
    }),
  ],
  checks: [{ name: 'ck_conversations_platform', expression: oneOf('platform', PLATFORMS) }],
  uniques: [{ name: 'uq_conversations_thread', columns: ['platform', 'platformThreadRef'] }],
});
