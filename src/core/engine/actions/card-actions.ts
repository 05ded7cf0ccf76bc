import type {
  CardAction,
  CardActionKind,
  CardActionResult,
  CardActionResults,
} from '../../model/card-action';
import type { PlatformActor } from '../../ports/chat-engine';
import { decide } from '../approvals/approvals';
import { stopRun } from '../stop/stop-run';
import { stopThread } from '../stop/stop-thread';
import type { ActionDeps } from './action-deps';
import { answerQuestion } from './answer-question';
import { toggleNote } from './toggle-note';

type Handler<K extends CardActionKind> = (
  deps: ActionDeps,
  action: Extract<CardAction, { kind: K }>,
  actor: PlatformActor,
) => Promise<CardActionResults[K]>;

/** One handler for each kind of action: the compiler requires a new kind to be handled here. */
const HANDLERS: { [K in CardActionKind]: Handler<K> } = {
  note: async (deps, action, actor) => {
    await toggleNote(deps, action.messageId, action.verb, actor);
    return { ok: true };
  },
  approval: (deps, action, actor) => decide(deps, action.approvalId, action.verdict, actor),
  answer: (deps, action, actor) => answerQuestion(deps, action.questionId, action.answer, actor),
  'stop-run': (deps, action, actor) => stopRun(deps, action.runId, actor),
  'stop-thread': (deps, action, actor) => stopThread(deps, action.thread, actor),
};

/**
 * A person's action on a card (N7, G4, N13) or a Stop (P15), carried out under the rule of its
 * kind; the result carries the refusal's sentence for the front end to show.
 */
export function actOnCard<A extends CardAction>(
  deps: ActionDeps,
  action: A,
  actor: PlatformActor,
): Promise<CardActionResult<A>> {
  // The table is keyed by kind, so the handler found takes exactly this action.
  const handler = HANDLERS[action.kind] as unknown as (
    deps: ActionDeps,
    action: A,
    actor: PlatformActor,
  ) => Promise<CardActionResult<A>>;
  return handler(deps, action, actor);
}
