import { EntitySchema } from 'typeorm';
import { BINDABLE_PLATFORMS } from '../../core/model/platform';
import type { PlatformBindingRecord, WorkspaceRecord } from '../../core/model/records';
import {
  createdAt,
  creationSeq,
  jsonb,
  oneOf,
  primaryId,
  text,
  textArray,
  uuid,
  workspaceForeignKey,
} from './columns';

export interface WorkspaceRow extends WorkspaceRecord {
  seq: string;
}

export const WorkspaceEntity = new EntitySchema<WorkspaceRow>({
  name: 'workspaces',
  columns: {
    id: primaryId('workspaces'),
    seq: creationSeq,
    slug: text(),
    name: text(),
    allowedDomains: textArray,
    budgets: jsonb('[]'),
    createdAt,
  },
  uniques: [{ name: 'uq_workspaces_slug', columns: ['slug'] }],
});

/** P1: a Slack team or Discord guild bound to one workspace. */
export interface PlatformBindingRow extends PlatformBindingRecord {
  seq: string;
  createdAt: Date;
}

export const PlatformBindingEntity = new EntitySchema<PlatformBindingRow>({
  name: 'platform_bindings',
  columns: {
    id: primaryId('platform_bindings'),
    seq: creationSeq,
    workspaceId: uuid(),
    platform: text(),
    externalId: text(),
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('platform_bindings')],
  checks: [{ name: 'ck_platform_bindings_platform', expression: oneOf('platform', BINDABLE_PLATFORMS) }],
  uniques: [
    { name: 'uq_platform_bindings_external', columns: ['platform', 'externalId'] },
    { name: 'uq_platform_bindings_workspace_platform', columns: ['workspaceId', 'platform'] },
  ],
});
