import type { LiveCard } from '../../core/engine/cards/live-card-board';
import { reachableSpaces } from '../../core/mcp-service/reachable-spaces';
import { canApprove } from '../../core/model/member';
import type { Platform } from '../../core/model/platform';
import type { ConsoleDeps } from './console-deps';
import { csrfField, esc } from './console-html';
import type { ConsoleViewer } from './console-sessions';
import { cardCell, tokensShown } from './live-card-cell';

/** O5: one run on the live-runs page. */
export interface LiveRun {
  id: string;
  agent: string;
  space: string;
  platform: Platform;
  /** The thread on its platform, when Summon can name its address. */
  threadLink: string | null;
  status: string;
  liveness: string;
  /** O3: every token it has used so far. */
  tokens: number;
  /** When it started (or was queued, while it waits). */
  since: Date;
  /** P15: the person who started it, owners, admins and approvers may stop it; the console shows Stop only to them. */
  canStop: boolean;
}

/**
 * O5: the queued and running turns of the spaces the viewer may reach (the threads they would
 * see in chat, E6's `reachableSpaces`), oldest first.
 */
export async function liveRuns(deps: Pick<ConsoleDeps, 'store'>, viewer: ConsoleViewer): Promise<LiveRun[]> {
  const { member, workspace } = viewer;
  return deps.store.inWorkspace(workspace.id, async (tx) => {
    const reach = await reachableSpaces(tx, member);
    const agents = await tx.agents.list(workspace.id);
    const teams = await tx.platformBindings.listForWorkspace(workspace.id);
    const runs = (await tx.runs.listByStatus(['queued', 'running'])).filter(
      (r) => r.workspaceId === workspace.id,
    );
    const tokens = await tx.usage.tokensOfRuns(runs.map((r) => r.id));
    const conversations = new Map(
      (await tx.conversations.findByIds([...new Set(runs.map((r) => r.conversationId))])).map((c) => [
        c.id,
        c,
      ]),
    );
    const rows: LiveRun[] = [];
    for (const run of runs) {
      const conversation = conversations.get(run.conversationId);
      const space = reach.find((r) => r.space.id === conversation?.spaceId)?.space;
      if (conversation === undefined || space === undefined) continue;
      const team = teams.find((t) => t.platform === conversation.platform)?.externalId ?? null;
      rows.push({
        id: run.id,
        agent: agents.find((a) => a.id === run.agentId)?.name ?? 'an agent',
        space: space.name,
        platform: conversation.platform,
        threadLink: threadLink(conversation.threadId, team),
        status: run.status,
        liveness: run.liveness,
        tokens: tokens.get(run.id) ?? 0,
        since: run.startedAt ?? run.createdAt,
        canStop: canApprove(member.role) || (member.role !== 'viewer' && run.startedByMemberId === member.id),
      });
    }
    return rows;
  });
}

/** A thread's address on its platform: Slack's web client, Discord's channel link; null when unknown. */
export function threadLink(threadId: string | null, team: string | null): string | null {
  if (threadId === null) return null;
  const slack = /^slack:([A-Z0-9]+):([0-9]+\.[0-9]+)$/.exec(threadId);
  if (slack !== null && team !== null)
    return `https://app.slack.com/client/${team}/${slack[1]}/thread/${slack[1]}-${slack[2]}`;
  const discord = /^discord:([0-9]+):([0-9]+):([0-9]+)$/.exec(threadId);
  if (discord !== null) return `https://discord.com/channels/${discord[1]}/${discord[3]}`;
  return null;
}

/** The start as a stable text (the table changes only when a run does); the script shows it as a running time. */
const since = (at: Date): string =>
  `<time datetime="${at.toISOString()}" data-since="${at.getTime()}">since ${at.toISOString().slice(11, 19)} UTC</time>`;

/**
 * O5: the live runs as the table the page shows and the live stream replaces; each run's status
 * card from `cards` (the turns this process runs; the live stream sends their changes one by one).
 */
export function runsTable(
  runs: readonly LiveRun[],
  csrf: string,
  cards: (runId: string) => LiveCard | null,
): string {
  if (runs.length === 0) return '<p id="runs-empty">No turn is running now.</p>';
  const rows = runs
    .map((run) => {
      const where = `#${esc(run.space)} on ${esc(run.platform)}`;
      const thread = run.threadLink === null ? where : `<a href="${esc(run.threadLink)}">${where}</a>`;
      const stop = run.canStop
        ? `<form class="inline" method="post" action="/console/runs/${esc(run.id)}/stop">${csrfField(csrf)}<button type="submit" class="danger" id="stop-${esc(run.id)}" aria-label="Stop ${esc(run.agent)}’s turn in #${esc(run.space)}">Stop</button></form>`
        : '';
      const card = cards(run.id);
      const tokens = tokensShown(run.tokens, card).toLocaleString('en-US');
      return `<tr data-run="${esc(run.id)}"><td>${esc(run.agent)}</td><td>${thread}</td><td class="status">${esc(run.status)}${run.liveness === 'ok' ? '' : ` (${esc(run.liveness)})`}</td>${cardCell(card)}<td>${since(run.since)}</td><td class="tokens">${tokens}</td><td>${stop}</td></tr>`;
    })
    .join('');
  return `<table><caption class="note">${runs.length} turn${runs.length === 1 ? '' : 's'} queued or running</caption><thead><tr><th scope="col">Agent</th><th scope="col">Thread</th><th scope="col">Status</th><th scope="col">Card</th><th scope="col">Running for</th><th scope="col">Tokens</th><th scope="col"><span class="note">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}
