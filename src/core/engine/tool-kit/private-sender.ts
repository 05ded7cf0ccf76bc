import type { ConversationRecord } from '../../model/conversation-records';
import type { Platform } from '../../model/platform';
import type { MemberRecord } from '../../model/records';
import type { ChatPlatform } from '../../ports/chat-platform';

/**
 * E5: a private message to a member in the turn's conversation (Slack: only they see it;
 * Discord: a direct message linking the thread; the terminal prints it as theirs). Null when
 * the conversation has no thread on a platform this process runs.
 */
export function privateSender(
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  conversation: Pick<ConversationRecord, 'platform' | 'threadId'>,
): ((member: MemberRecord, text: string) => Promise<void>) | null {
  const platform = platforms.get(conversation.platform);
  const thread = conversation.threadId;
  if (platform === undefined || thread === null) return null;
  return async (member, text) => {
    const user = platformUserId(member, conversation.platform);
    if (user === null)
      throw new Error(`@${member.nickname} has no ${conversation.platform} account Summon knows`);
    await platform.tellPrivately(thread, user, text);
  };
}

function platformUserId(member: MemberRecord, platform: Platform): string | null {
  if (platform === 'slack') return member.slackUserId;
  if (platform === 'discord') return member.discordUserId;
  // The terminal's people are the workspace's members by nickname.
  return member.nickname;
}
