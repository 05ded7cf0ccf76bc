import { reachableSpaces } from '../../core/mcp-service/reachable-spaces';
import { approvalLabels } from '../../core/model/approvals/approval-action';
import { canApprove } from '../../core/model/member';
import type { PendingApproval } from '../../core/ports/member-tools';
import { describeBudget, formatUsd } from '../../core/usage/budget';
import { totalTokens } from '../../core/usage/token-usage';
import type { ConsoleDeps } from './console-deps';
import { csrfField, esc } from './console-html';
import type { ConsoleViewer } from './console-sessions';
import { liveRuns, runsTable } from './live-runs';

/** A page's body and title, for `layout`. */
export interface PageBody {
  title: string;
  body: string;
}

const caller = (viewer: ConsoleViewer) => ({ workspace: viewer.workspace, member: viewer.member });

/** O5: the live runs: the table, replaced as the live stream (`/console/live`) sends it again. */
export async function runsPage(deps: ConsoleDeps, viewer: ConsoleViewer): Promise<PageBody> {
  const runs = await liveRuns(deps, viewer);
  return {
    title: 'Live runs',
    body: `<p class="note">Turns queued or running in the spaces you can reach, kept up to date.</p><div id="runs" aria-live="polite" data-live="runs">${runsTable(runs, viewer.session.csrfToken, (id) => deps.liveCards.cardOf(id))}</div>`,
  };
}

/** O5, G4: one queue of the pending approvals the viewer can see, across platforms. */
export async function approvalsPage(deps: ConsoleDeps, viewer: ConsoleViewer): Promise<PageBody> {
  const pending = await deps.members.listApprovals(caller(viewer));
  return {
    title: 'Approvals',
    body: `<div id="approvals" aria-live="polite" data-live="approvals">${approvalsList(pending, viewer)}</div>`,
  };
}

/** O5: the pending approvals; Approve and Deny only for roles that may decide (G4). */
export function approvalsList(pending: readonly PendingApproval[], viewer: ConsoleViewer): string {
  if (pending.length === 0) return '<p id="approvals-empty">Nothing is waiting for approval.</p>';
  const decides = canApprove(viewer.member.role);
  const items = pending.map((a) => {
    const form = (verdict: 'approve' | 'deny', label: string) =>
      `<form class="inline" method="post" action="/console/approvals/${esc(a.approvalId)}">${csrfField(viewer.session.csrfToken)}<input type="hidden" name="verdict" value="${verdict}"><button type="submit"${verdict === 'deny' ? ' class="danger"' : ''} aria-label="${label}: ${esc(a.summary)}">${label}</button></form> `;
    const labels = approvalLabels(a.action);
    const buttons = decides ? `<p>${form('approve', labels.approve)}${form('deny', labels.deny)}</p>` : '';
    const details = a.details.map((line) => `<li>${esc(line)}</li>`).join('');
    return `<li data-approval="${esc(a.approvalId)}"><h2>${esc(a.summary)}</h2><p class="note">${esc(a.agent ?? 'An agent')} in #${esc(a.space ?? '?')} asks to ${esc(a.action.replaceAll('_', ' '))}; waiting until ${esc(a.expiresAt.replace('T', ' ').slice(0, 16))} UTC.</p>${details === '' ? '' : `<ul>${details}</ul>`}${buttons}</li>`;
  });
  const note = decides
    ? ''
    : `<p class="note">Your role (${esc(viewer.member.role)}) can see approvals but not decide them.</p>`;
  return `${note}<ul class="approvals">${items.join('')}</ul>`;
}

/** O3, O5: usage this month by agent, space and member, with a bar chart; the budgets beside it. */
export async function usagePage(deps: ConsoleDeps, viewer: ConsoleViewer): Promise<PageBody> {
  const now = deps.clock.now();
  const since = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
  const sections: string[] = [];
  for (const by of ['agent', 'space', 'member'] as const) {
    const { rows } = await deps.members.usage(caller(viewer), { by, since });
    sections.push(
      `<h2>By ${by}</h2>${usageChart(
        rows.map((r) => ({ name: r.name, tokens: totalTokens(r.usage), cost: r.costUsd })),
        by,
      )}`,
    );
  }
  const budgets = viewer.workspace.budgets.map((b) => `<li>${esc(describeBudget(b))}</li>`).join('');
  return {
    title: 'Usage and budgets',
    body: `<p class="note">Tokens and cost since ${since} (UTC).</p>${sections.join('')}<h2>Budgets</h2>${budgets === '' ? '<p>No budget is set (the workspace file’s <code>budgets</code>).</p>' : `<ul>${budgets}</ul>`}`,
  };
}

/** An inline SVG bar chart with the same numbers as a table beside it (the table is what screen readers read). */
function usageChart(
  rows: readonly { name: string; tokens: number; cost: number | null }[],
  by: string,
): string {
  if (rows.length === 0) return '<p>No runs yet.</p>';
  const max = Math.max(1, ...rows.map((r) => r.tokens));
  const bars = rows
    .map(
      (r, i) =>
        `<rect x="120" y="${i * 24 + 4}" width="${Math.max(1, Math.round((r.tokens / max) * 360))}" height="16" fill="#2563eb"></rect><text x="0" y="${i * 24 + 17}" font-size="13">${esc(r.name.slice(0, 16))}</text>`,
    )
    .join('');
  const table = rows
    .map(
      (r) =>
        `<tr><th scope="row">${esc(r.name)}</th><td>${r.tokens.toLocaleString('en-US')}</td><td>${r.cost === null ? '-' : formatUsd(r.cost)}</td></tr>`,
    )
    .join('');
  return `<svg role="img" aria-label="Tokens by ${by}" width="500" height="${rows.length * 24 + 8}">${bars}</svg><table><thead><tr><th scope="col">${esc(by)}</th><th scope="col">Tokens</th><th scope="col">Cost</th></tr></thead><tbody>${table}</tbody></table>`;
}

/** O5: the agents and the spaces the viewer can reach, read-only. */
export async function agentsPage(deps: ConsoleDeps, viewer: ConsoleViewer): Promise<PageBody> {
  const { agents, reach } = await deps.store.inWorkspace(viewer.workspace.id, async (tx) => ({
    agents: await tx.agents.list(viewer.workspace.id),
    reach: await reachableSpaces(tx, viewer.member),
  }));
  const agentRows = agents
    .map((a) => `<tr><th scope="row">${esc(a.name)}</th><td>${esc(a.title)}</td></tr>`)
    .join('');
  const spaceRows = reach
    .map(
      (r) =>
        `<tr><th scope="row">#${esc(r.space.name)}</th><td>${esc([...new Set(r.bindings.map((b) => b.platform))].join(', '))}</td><td>${esc(r.agents.map((a) => a.name).join(', ') || '—')}</td></tr>`,
    )
    .join('');
  return {
    title: 'Agents and spaces',
    body: `<h2>Agents</h2><table><thead><tr><th scope="col">Agent</th><th scope="col">Title</th></tr></thead><tbody>${agentRows}</tbody></table><h2>Spaces</h2><table><thead><tr><th scope="col">Space</th><th scope="col">Platforms</th><th scope="col">Agents</th></tr></thead><tbody>${spaceRows}</tbody></table>`,
  };
}
