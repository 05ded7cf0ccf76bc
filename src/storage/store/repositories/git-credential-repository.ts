import { type EntityManager, IsNull } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { GitCredentialRecord } from '../../../core/model/git-gateway';
import type { GitCredentialRepository } from '../../../core/ports/git-gateway-store';
import { GitCredentialEntity, type GitCredentialRow } from '../../entities/git-credential.entity';
import { isUuid } from '../ids';

const toRecord = (row: GitCredentialRow): GitCredentialRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  runId: row.runId,
  repos: [...row.repos],
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
});

export const gitCredentialRepository = (manager: EntityManager): GitCredentialRepository => {
  const rows = manager.getRepository(GitCredentialEntity);
  return {
    async insert(workspaceId, fields) {
      // A2: fk_git_credentials_run refuses a run of another workspace.
      if (!isUuid(fields.runId)) throw new NotFoundError(`No run with id ${fields.runId} in this workspace.`);
      const row = rows.create({
        workspaceId,
        runId: fields.runId,
        tokenHash: fields.tokenHash,
        repos: [...fields.repos],
        expiresAt: fields.expiresAt,
        revokedAt: null,
      });
      return toRecord(await rows.save(row));
    },
    async findByTokenHash(tokenHash) {
      const row = await rows.findOneBy({ tokenHash });
      return row ? toRecord(row) : null;
    },
    async revokeForRun(runId, at) {
      if (!isUuid(runId)) return 0;
      const result = await rows.update({ runId, revokedAt: IsNull() }, { revokedAt: at });
      return result.affected ?? 0;
    },
  };
};
