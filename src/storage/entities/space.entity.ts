import { EntitySchema } from 'typeorm';
import { PLATFORMS } from '../../core/model/platform';
import type { ChannelBindingRecord, SpaceRecord } from '../../core/model/records';
import { AUTONOMY_LEVELS, SPACE_MODES, WHILE_RUNNING } from '../../core/model/space';
import {
  boolean,
  createdAt,
  creationSeq,
  integer,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  textArray,
  uuid,
  workspaceForeignKey,
} from './columns';

export interface SpaceRow extends SpaceRecord {
  seq: string;
}

export const SpaceEntity = new EntitySchema<SpaceRow>({
  name: 'spaces',
  columns: {
    id: primaryId('spaces'),
    seq: creationSeq,
    workspaceId: uuid(),
    name: text(),
    context: text({ default: '' }),
    mode: text({ default: 'chat' }),
    autonomy: text({ default: 'actWithApproval' }),
    dedicated: boolean(false),
    whileRunning: text({ default: 'steer' }),
    repos: textArray,
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('spaces')],
  checks: [
    { name: 'ck_spaces_mode', expression: oneOf('mode', SPACE_MODES) },
    { name: 'ck_spaces_autonomy', expression: oneOf('autonomy', AUTONOMY_LEVELS) },
    { name: 'ck_spaces_while_running', expression: oneOf('while_running', WHILE_RUNNING) },
  ],
  uniques: [{ name: 'uq_spaces_id_workspace', columns: ['id', 'workspaceId'] }],
  indices: [
    // (workspace_id, lower(name)); an expression index TypeORM cannot describe.
    { name: 'uq_spaces_name', columns: ['workspaceId'], unique: true, synchronize: false },
  ],
});

/** One participant of a space, an agent or a member; `position` keeps the order they were set in. */
export interface SpaceParticipantRow {
  id: string;
  workspaceId: string;
  spaceId: string;
  position: number;
  agentId: string | null;
  memberId: string | null;
}

export const SpaceParticipantEntity = new EntitySchema<SpaceParticipantRow>({
  name: 'space_participants',
  columns: {
    id: primaryId('space_participants'),
    workspaceId: uuid(),
    spaceId: uuid(),
    position: integer(),
    agentId: uuid(true),
    memberId: uuid(true),
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_space_participants_space', 'spaceId', 'spaces', 'CASCADE'),
    sameWorkspaceForeignKey('fk_space_participants_agent', 'agentId', 'agents', 'CASCADE'),
    sameWorkspaceForeignKey('fk_space_participants_member', 'memberId', 'members', 'CASCADE'),
  ],
  checks: [
    { name: 'ck_space_participants_one_principal', expression: 'num_nonnulls(agent_id, member_id) = 1' },
  ],
  uniques: [
    { name: 'uq_space_participants_position', columns: ['spaceId', 'position'] },
    { name: 'uq_space_participants_agent', columns: ['spaceId', 'agentId'] },
    { name: 'uq_space_participants_member', columns: ['spaceId', 'memberId'] },
  ],
});

/** P1: a chat channel bound to at most one space. */
export interface ChannelBindingRow extends ChannelBindingRecord {
  seq: string;
  createdAt: Date;
}

export const ChannelBindingEntity = new EntitySchema<ChannelBindingRow>({
  name: 'channel_bindings',
  columns: {
    id: primaryId('channel_bindings'),
    seq: creationSeq,
    workspaceId: uuid(),
    spaceId: uuid(),
    platform: text(),
    channelId: text(),
    createdAt,
  },
  foreignKeys: [sameWorkspaceForeignKey('fk_channel_bindings_space', 'spaceId', 'spaces', 'CASCADE')],
  checks: [{ name: 'ck_channel_bindings_platform', expression: oneOf('platform', PLATFORMS) }],
  uniques: [{ name: 'uq_channel_bindings_channel', columns: ['platform', 'channelId'] }],
});
