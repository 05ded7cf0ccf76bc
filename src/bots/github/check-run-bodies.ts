import type { ApprovalCard, StatusCard } from '../../core/ports/chat-platform';
import type { CheckRunWrite } from '../../core/ports/github-check-runs';
import type { DecidedOn, TurnCheckEnd } from '../../core/ports/turn-checks';
import { clipLines } from '../../core/text/clip-lines';

/** GitHub refuses a summary longer than this; Summon's stay far below it. */
const SUMMARY_LIMIT = 4_000;
/** P21: how much of a reply or an error a finished check shows (the thread has the whole). */
const END_LIMIT = 2_000;
const TITLE_LIMIT = 120;

/** G4, P21: the buttons' identifiers (GitHub: ≤ 20 characters); the approval is the check's external id. */
export const APPROVE = 'approve';
export const DENY = 'deny';
const APPROVAL_PREFIX = 'summon-approval:';

/** P21: a turn's check is named after its agent, so each agent's turns read apart on the pull request. */
export const turnCheckName = (agent: string): string => `summon / ${agent}`;
export const approvalCheckName = (agent: string): string => `summon / ${agent} / approval`;
export const turnExternalId = (runId: string): string => `summon-run:${runId}`;
export const approvalExternalId = (approvalId: string): string => `${APPROVAL_PREFIX}${approvalId}`;

/** G4: the approval a check run's external id names, or null when it is not an approval's. */
export const approvalOfExternalId = (externalId: unknown): string | null =>
  typeof externalId === 'string' && externalId.startsWith(APPROVAL_PREFIX)
    ? externalId.slice(APPROVAL_PREFIX.length) || null
    : null;

const clip = (text: string, limit: number): string =>
  text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;

/** P21: a queued turn. */
export function queuedCheck(agent: string, runId: string): CheckRunWrite {
  return {
    name: turnCheckName(agent),
    externalId: turnExternalId(runId),
    status: 'queued',
    title: clip(`${agent} is queued`, TITLE_LIMIT),
    summary: `${agent} will start as soon as it has a free slot.`,
  };
}

/** P9, P21: a running turn: its headline as the title, the status card's rows as the summary. */
export function progressCheck(runId: string, card: StatusCard): CheckRunWrite {
  const rows = card.rows.map((row) => `- ${row}`);
  return {
    name: turnCheckName(card.agent),
    externalId: turnExternalId(runId),
    status: 'in_progress',
    title: clip(`${card.agent}: ${card.headline}`, TITLE_LIMIT),
    summary: rows.length === 0 ? card.headline : clipLines(rows, SUMMARY_LIMIT),
  };
}

/**
 * P21: a finished turn: `success` with the start of its reply, `failure` with its error
 * (bounded), `cancelled` for a person's Stop (P15: the turn did not fail, someone ended it).
 */
export function endedCheck(agent: string, runId: string, end: TurnCheckEnd): CheckRunWrite {
  const base = {
    name: turnCheckName(agent),
    externalId: turnExternalId(runId),
    status: 'completed' as const,
  };
  switch (end.outcome) {
    case 'success':
      return {
        ...base,
        conclusion: 'success',
        title: clip(`${agent} replied`, TITLE_LIMIT),
        summary: clip(end.reply, END_LIMIT),
      };
    case 'failure':
      return {
        ...base,
        conclusion: 'failure',
        title: clip(`${agent}'s turn failed`, TITLE_LIMIT),
        summary: clip(end.error, END_LIMIT),
      };
    default:
      return { ...base, conclusion: 'cancelled', title: clip(end.by, TITLE_LIMIT), summary: end.by };
  }
}

/**
 * P21: a turn's check on a commit it is no longer on: the turn pushed another commit to the
 * pull request and its check went on there; this one is closed, neither success nor failure.
 */
export function supersededCheck(agent: string, runId: string, headSha: string): CheckRunWrite {
  const commit = headSha.slice(0, 7);
  return {
    name: turnCheckName(agent),
    externalId: turnExternalId(runId),
    status: 'completed',
    conclusion: 'neutral',
    title: clip(`${agent} went on at ${commit}`, TITLE_LIMIT),
    summary: `${agent} pushed ${commit} to this pull request; the turn's check goes on there.`,
  };
}

const WHERE: Record<DecidedOn, string> = {
  github: ' on GitHub',
  slack: ' in Slack',
  discord: ' in Discord',
  terminal: ' in the terminal',
  console: ' in the console',
};

/**
 * G4, P21: an approval as a check run: pending, `action_required` with Approve and Deny;
 * decided, `success` (approved) or `failure` (denied, expired) with who decided and where, and
 * no buttons.
 */
export function approvalCheck(
  card: ApprovalCard,
  decidedOn: DecidedOn | null,
  detailsUrl: string,
): CheckRunWrite {
  const details = [...card.details.map((line) => `- ${line}`)];
  if (card.code !== undefined) details.push('', '```', card.code.replaceAll('```', "'''"), '```');
  const base = {
    name: approvalCheckName(card.agent),
    externalId: approvalExternalId(card.approvalId),
    status: 'completed' as const,
    detailsUrl,
  };
  const asked = clip(`${card.agent} asks: ${card.summary}`, TITLE_LIMIT);
  if (card.status === 'pending') {
    return {
      ...base,
      conclusion: 'action_required',
      title: asked,
      summary: clipLines(
        [`**${asked}**`, '', ...details, '', 'Approve or Deny above; only approvers may decide.'],
        SUMMARY_LIMIT,
      ),
      actions: [
        { label: 'Approve', description: `Let ${clip(card.agent, 27)} go ahead`, identifier: APPROVE },
        { label: 'Deny', description: 'Refuse what is asked', identifier: DENY },
      ],
    };
  }
  const by =
    card.decidedBy === null ? '' : ` by ${card.decidedBy}${decidedOn === null ? '' : WHERE[decidedOn]}`;
  const verdict = card.status === 'approved' ? 'Approved' : card.status === 'denied' ? 'Denied' : 'Expired';
  const title = clip(`${verdict}${by}`, TITLE_LIMIT);
  return {
    ...base,
    conclusion: card.status === 'approved' ? 'success' : 'failure',
    title,
    summary: clipLines([`**${asked}**`, '', ...details, '', `${title}.`], SUMMARY_LIMIT),
    actions: [],
  };
}
