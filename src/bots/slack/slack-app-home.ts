import type { App, webApi } from '@slack/bolt';
import type { AgentPresence } from '../../core/model/agent-view';
import { approvalLabels } from '../../core/model/approvals/approval-action';
import type { WorkspaceOverview } from '../../core/model/workspace-overview';
import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { Logger } from '../../core/ports/logger';
import { formatTokens, formatUsd } from '../../core/usage/budget';
import { totalTokens } from '../../core/usage/token-usage';
import { ACTIONS, type SlackBlock } from './outbound/slack-cards';
import { escapeMrkdwn } from './outbound/slack-mrkdwn';

const MAX_BLOCKS = 100; // a Home tab view holds at most 100 blocks

const section = (text: string): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
const header = (text: string): SlackBlock => ({ type: 'header', text: { type: 'plain_text', text } });

/** A13: how each presence reads on App Home. */
const PRESENCE_WORDS: Record<AgentPresence, string> = {
  thinking: ':thought_balloon: thinking',
  running: ':gear: running',
  blockedOnApproval: ':lock: blocked on approval',
  done: ':white_check_mark: done',
};

/**
 * App Home: the agents with live status (A12) and presence (A13), approvals waiting with
 * buttons (G4), this month's usage (O3), bound spaces.
 */
export function homeBlocks(overview: WorkspaceOverview | null): SlackBlock[] {
  if (overview === null) {
    return [
      section(
        'You are not linked to a Summon workspace yet. Ask an admin for a one-time code (`summon members invite`) and send `/summon link-account <code>`.',
      ),
    ];
  }
  const blocks: SlackBlock[] = [header(`Summon · ${overview.workspaceName}`), header('Agents')];
  for (const view of overview.agents) {
    const reports = view.reportsTo === null ? '' : ` · reports to ${escapeMrkdwn(view.reportsTo)}`;
    const presence = view.presence === null ? '' : ` · ${PRESENCE_WORDS[view.presence]}`;
    blocks.push(
      section(
        `*${escapeMrkdwn(view.agent.name)}* (${escapeMrkdwn(view.agent.title)}): ${view.status}${presence}${reports}`,
      ),
    );
  }
  blocks.push(header('Approvals waiting'));
  if (overview.pendingApprovals.length === 0) blocks.push(section('None.'));
  for (const approval of overview.pendingApprovals.slice(0, 20)) {
    blocks.push(section(`*${escapeMrkdwn(approval.action)}*: ${escapeMrkdwn(approval.details.summary)}`));
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: approvalLabels(approval.action).approve },
          style: 'primary',
          action_id: ACTIONS.approve,
          value: approval.id,
        },
        {
          type: 'button',
          text: { type: 'plain_text', text: approvalLabels(approval.action).deny },
          style: 'danger',
          action_id: ACTIONS.deny,
          value: approval.id,
        },
      ],
    });
  }
  // O3: what the agents used this month (UTC), cost at list prices where the model has one.
  blocks.push(header('Usage this month'));
  if (overview.usageThisMonth.length === 0) blocks.push(section('No runs yet.'));
  const usage = overview.usageThisMonth.slice(0, 20).map((row) => {
    const cost = row.costUsd === null ? '' : ` · ${formatUsd(row.costUsd)}`;
    return `*${escapeMrkdwn(row.name)}*: ${formatTokens(totalTokens(row.usage))}${cost} (${row.runs} ${row.runs === 1 ? 'run' : 'runs'})`;
  });
  if (usage.length > 0) blocks.push(section(usage.join('\n')));
  blocks.push(header('Spaces'));
  for (const space of overview.spaces) {
    const channels =
      space.channels.length === 0 ? 'no channel' : space.channels.map((c) => `<#${c}>`).join(', ');
    blocks.push(section(`*${escapeMrkdwn(space.name)}*: ${channels}`));
  }
  return blocks.slice(0, MAX_BLOCKS);
}

/** Draws one person's App Home from the workspace as it is now; `notice` goes on top. */
export async function publishHome(
  client: webApi.WebClient,
  directory: Pick<ChatDirectory, 'homeOverview'>,
  who: { teamId: string; userId: string; notice?: string | null },
): Promise<void> {
  const overview = await directory.homeOverview('slack', who.teamId, who.userId);
  const notice = who.notice ? [section(`:warning: ${escapeMrkdwn(who.notice)}`)] : [];
  const blocks = [...notice, ...homeBlocks(overview)].slice(0, MAX_BLOCKS);
  await client.views.publish({ user_id: who.userId, view: { type: 'home', blocks: blocks as never } });
}

export function registerAppHome(
  app: App,
  deps: { directory: Pick<ChatDirectory, 'homeOverview'>; logger: Logger },
): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home' || body.team_id === undefined) return;
    await publishHome(client, deps.directory, { teamId: body.team_id, userId: event.user });
    deps.logger.debug({ component: 'slack', user: event.user }, 'App Home published');
  });
}
