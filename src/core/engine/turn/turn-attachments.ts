import { type PreparedAttachments, prepareAttachments } from '../../attachments/prepare-attachments';
import type { Runner } from '../../ports/runner';
import type { PromptInput } from '../../prompt';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';

/**
 * P13, T4: the files of the turn's message are fetched here, when the turn starts (never on
 * the ack path): through the message's platform, into the run's working folder, images only
 * for a runner that takes them. Null when the message has none.
 */
export async function attachmentsForTurn(
  deps: TurnDeps,
  context: TurnContext,
  runner: Runner,
  workingDir: string,
  signal: AbortSignal,
): Promise<PreparedAttachments | null> {
  const refs = context.trigger?.attachments ?? [];
  if (refs.length === 0) return null;
  return prepareAttachments(refs, {
    fetcher: deps.platforms.get(context.conversation.platform)?.attachments,
    shelf: deps.attachmentShelf,
    workingDir,
    takesImages: runner.takesImages === true,
    ...(deps.attachmentLimits === undefined ? {} : { limits: deps.attachmentLimits }),
    logger: deps.logger.child({ component: 'attachments', runId: context.run.id }),
    signal,
  });
}

/** The prompt input with the files named (P13: every file's name and size, and what became of it). */
export const withAttachments = (input: PromptInput, prepared: PreparedAttachments | null): PromptInput =>
  prepared === null ? input : { ...input, attachments: prepared.attachments };
