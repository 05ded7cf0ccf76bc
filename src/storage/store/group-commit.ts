/**
 * T4: the inbox's group commit (`TypeormStore.addToInbox`). The class is the core's pure one
 * (`src/core/waits/group-commit.ts`), which the turn engine's batched writes use too (T3).
 */
export { GroupCommit } from '../../core/waits/group-commit';
