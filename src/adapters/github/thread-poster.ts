import type { Store } from '../../core/ports/store';
import type { SystemMessagePoster } from '../../core/ports/system-messages';
import { readRunScope } from '../../core/spaces/run-scope';

/** Posts a system line in a run's thread through the core's poster; nothing when the run or its conversation is gone. */
export function threadPoster(store: Store, post: SystemMessagePoster) {
  return async (runId: string, text: string): Promise<void> => {
    const scope = await readRunScope(store, runId);
    if (scope?.conversation == null) return;
    await post(scope.conversation, text);
  };
}
