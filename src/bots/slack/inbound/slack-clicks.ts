import type { App } from '@slack/bolt';
import { AppError } from '../../../core/errors';
import type { CardAction, Refusable } from '../../../core/model/card-action';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { ChatEngine } from '../../../core/ports/chat-engine';
import type { ChatPlatform } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import { decodeSlackClick, type SlackActionBody, type SlackClick, SUMMON_CLICK } from './slack-click-decoder';
import { isForeignChannel } from './slack-foreign-team';

export interface SlackClickDeps {
  engine: ChatEngine;
  platform: ChatPlatform;
  /** A2: which team's workspace owns the channel a card is in. */
  directory: ChatDirectory;
  logger: Logger;
  /** Clicks whose effect is still on its way; closing waits for them. */
  inFlight: Set<Promise<void>>;
  /** Publishes the person's App Home again, with a notice on top (a refused click). */
  refreshHome: (teamId: string, userId: string, notice: string | null) => Promise<void>;
}

/**
 * The clicks on Summon's buttons (N7 notes, N13 answers, G4 approvals, P15 Stop), each decoded
 * once into the core's action. A click is acknowledged at once (Slack shows an error after 3 s
 * and never retries a click); its effect (a card edit, a private refusal) follows through the
 * outbox.
 */
export function registerCardClicks(app: App, deps: SlackClickDeps): void {
  app.action(SUMMON_CLICK, async ({ ack, body }) => {
    await ack();
    const running = answerClick(body as SlackActionBody, deps).catch((error: unknown) =>
      deps.logger.error({ component: 'slack', err: String(error) }, 'a Slack click failed'),
    );
    deps.inFlight.add(running);
    void running.then(() => deps.inFlight.delete(running));
  });
}

/**
 * The core decides who may (P8); a refusal is told only to the clicker (P5). A click naming a
 * channel of another team's workspace is answered by the ack alone (A2).
 */
async function answerClick(body: SlackActionBody, deps: SlackClickDeps): Promise<void> {
  const decoded = decodeSlackClick(body);
  if (!decoded.ok) {
    deps.logger.debug({ component: 'slack', reason: decoded.reason }, 'a Slack click was not read');
    return;
  }
  const { action, actor, thread, channel, teamId } = decoded.click;
  // A2, P8: a card in another team's workspace: nothing acts and nothing is told in its channel
  // (an ephemeral there would be a write into that workspace); the warn line is all.
  if (
    channel !== null &&
    (await isForeignChannel(deps.directory, { teamId, channel, what: 'click' }, deps.logger))
  )
    return;
  const result = await actOrRefusal(deps.engine, decoded.click);
  if (action.kind === 'approval' && decoded.click.onHome) {
    // G4: a click on App Home: the home is drawn again, with the refusal if there was one.
    await deps.refreshHome(decoded.click.teamId, actor.senderId, result.ok ? null : result.reason);
    return;
  }
  if (result.ok || thread === null) return;
  const logged = refusalLog(action);
  if (logged !== null) {
    deps.logger.info({ component: 'slack', ...logged.fields, reason: result.reason }, logged.message);
  }
  await deps.platform.tellPrivately(thread, actor.senderId, result.reason);
}

/**
 * N7: a note click is refused by an `AppError` (a stranger's click, a note that is gone): told
 * to the clicker in the thread like any other refusal; nothing changes.
 */
async function actOrRefusal(engine: ChatEngine, click: SlackClick): Promise<Refusable> {
  try {
    return await engine.act(click.action, click.actor);
  } catch (error) {
    if (click.action.kind !== 'note' || !(error instanceof AppError) || click.thread === null) throw error;
    return { ok: false, reason: error.message };
  }
}

function refusalLog(action: CardAction): { fields: Record<string, string>; message: string } | null {
  switch (action.kind) {
    case 'note':
      return { fields: {}, message: 'note click refused' };
    case 'answer':
      return { fields: { questionId: action.questionId }, message: 'answer refused' };
    case 'stop-run':
      return { fields: { runId: action.runId }, message: 'stop refused' };
    default:
      return null;
  }
}
