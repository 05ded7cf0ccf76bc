import type { StoreTx } from '../../src/core/ports/store';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { CHANNEL, TEAM } from './slack-delivery';

/** dana, the owner whose Slack account is linked in the tests' Slack team. */
export const DANA = 'U0DANA0001';

/**
 * The default workspace as a `summon serve` test links it to Slack: the tests' team bound to it,
 * their channel to its `general` space, and dana (owner) with her Slack account. Its workspace id.
 */
export async function linkLocalChatToSlack(tx: StoreTx): Promise<string> {
  const chat = await ensureLocalChat(tx);
  await tx.platformBindings.bind(chat.workspace.id, 'slack', TEAM);
  await tx.channelBindings.bind(chat.space.id, 'slack', CHANNEL);
  await tx.members.insert(chat.workspace.id, {
    nickname: 'dana',
    role: 'owner',
    slackUserId: DANA,
    discordUserId: null,
  });
  return chat.workspace.id;
}
