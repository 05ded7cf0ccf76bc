import { postNote } from '../engine/cards/post-note';
import { queuedRun } from '../engine/routing/queued-run';
import type { ConversationRecord, MessageRecord } from '../model/conversation-records';
import type { AgentRecord, RunRecord, SpaceRecord } from '../model/records';
import type { PromptRequest, PromptResponse } from '../model/relays/relay-protocol';
import type { RelayPairingRecord } from '../model/relays/relay-records';
import { conversationMarker } from '../notes';
import type { StoreTx } from '../ports/store';
import { MAX_WAKE_DEPTH } from '../wake/wake-limits';
import { checkRelayChain } from './relay-chain';
import type { RelayInboundDeps } from './relay-inbound-deps';
import { RelayRefusal } from './relay-protocol';

const TITLE_LENGTH = 80;

/**
 * R2, N1–N5, N12: a note from an agent of a paired relay, placed like a local note: a new
 * conversation in a space where the agent takes part (or the named one), marked
 * `↗ relay-name` (N4), the folded note with its badge linking to the sending session there
 * (N3), and the agent's turn queued. M20 (R3): the chain it carries is checked again here,
 * before anything is stored.
 */
export async function placeRemoteNote(
  deps: RelayInboundDeps,
  pairing: RelayPairingRecord,
  request: PromptRequest,
): Promise<PromptResponse> {
  const ownName = deps.relayName ?? 'this relay';
  const placed = await deps.store.inWorkspace(pairing.workspaceId, async (tx) => {
    const admitted = await admitNote(tx, deps, pairing, request, ownName);
    const place = await placeFor(tx, deps, pairing.workspaceId, admitted.target, request.space, ownName);
    return storeNote(tx, deps, pairing, request, admitted, place);
  });
  const { target, conversation, run, place } = placed;
  await showNote(deps, pairing, request, placed);
  await deps.queue.enqueue({ id: run.id, data: { runId: run.id } });
  deps.logger.info(
    {
      relay: pairing.remoteName,
      from: request.sender.agent,
      target: target.name,
      started: run.id,
    },
    'a paired relay handed a note to an agent',
  );
  return {
    prompt: run.id,
    agent: target.name,
    where: `a new conversation in space ${place.space.name} ("${conversation.title}") on relay ${ownName}`,
  };
}

/** The agent a note is for, and the chain it joins (M20, R3). */
interface Admitted {
  target: AgentRecord;
  chain: { chain: string[]; depth: number };
}

/** Where a placed note's conversation is made. */
interface NotePlace {
  space: SpaceRecord;
  platform: ConversationRecord['platform'];
  channelId: string;
}

/** What placing stored: the conversation, its note (linked to its run) and the queued run. */
interface Placed extends Admitted {
  place: NotePlace;
  conversation: ConversationRecord;
  note: MessageRecord;
  run: RunRecord;
}

/**
 * R2, R3, M20: the note's agent exists here, the chain it carries may reach it, and the pair's
 * limit takes one more note for it; otherwise the refusal is the sending agent's sentence.
 */
async function admitNote(
  tx: StoreTx,
  deps: Pick<RelayInboundDeps, 'pairLimiter' | 'clock'>,
  pairing: RelayPairingRecord,
  request: PromptRequest,
  ownName: string,
): Promise<Admitted> {
  const agents = await tx.agents.list(pairing.workspaceId);
  const target = agents.find((a) => a.name.toLowerCase() === request.agent.trim().toLowerCase());
  if (target === undefined) {
    throw new RelayRefusal(
      'not_found',
      `There is no agent named "${request.agent}" on relay ${ownName}. Agents: ${agents.map((a) => a.name).join(', ')}.`,
    );
  }
  const chain = checkRelayChain({
    tool: 'the prompt',
    chain: request.chain,
    depth: request.depth,
    target: { agent: target.name, relay: ownName },
  });
  if (!chain.ok) throw new RelayRefusal('limit', chain.reason);
  const pair = `relay:${pairing.id}`;
  if (!(await deps.pairLimiter.tryAcquire(pairing.workspaceId, pair, target.id, deps.clock.now()))) {
    throw new RelayRefusal(
      'rate_limited',
      `Relay ${ownName} is not taking more notes from ${pairing.remoteName} for ${target.name} right now (too many in a short time). Try again later.`,
    );
  }
  return { target, chain };
}

/**
 * N1–N5, M2: a new conversation owned by the target, which joins the space; the note from the
 * paired relay's agent (N5: named by its relay, N3: with its session's address), and its run.
 */
async function storeNote(
  tx: StoreTx,
  deps: Pick<RelayInboundDeps, 'clock'>,
  pairing: RelayPairingRecord,
  request: PromptRequest,
  { target, chain }: Admitted,
  place: NotePlace,
): Promise<Placed> {
  const workspaceId = pairing.workspaceId;
  const conversation = await tx.conversations.insert(workspaceId, {
    spaceId: place.space.id,
    platform: place.platform,
    threadId: null,
    title: titleOf(request.text),
    ownerAgentId: target.id,
    createdByAgentId: null,
  });
  await tx.spaces.addParticipant(place.space.id, { kind: 'agent', agentId: target.id });
  const note = await tx.messages.insert(workspaceId, {
    conversationId: conversation.id,
    authorKind: 'agent',
    authorAgentId: null,
    authorMemberId: null,
    text: request.text,
    mentions: { agents: [{ agentId: target.id, name: target.name }], members: [] },
    platformMessageRef: null,
    note: {
      senderAgentId: null,
      senderRelay: pairing.remoteName,
      sourceConversationId: null,
      sourceTitle: request.sender.session.title,
      runId: null,
      foldState: 'auto',
      remote: {
        pairingId: pairing.id,
        agentName: request.sender.agent,
        modelId: request.sender.model,
        sessionUrl: request.sender.session.url,
        chain: chain.chain,
      },
    },
  });
  const run = await tx.runs.insert(
    queuedRun(
      {
        workspaceId,
        agentId: target.id,
        conversationId: conversation.id,
        triggerMessageId: note.id,
        createdAt: deps.clock.now(),
      },
      // M20, R3: the local part of the chain starts with the target; the depth counts every relay.
      { by: 'relay', wakeChain: [target.id], depth: Math.min(chain.depth, MAX_WAKE_DEPTH) },
    ),
  );
  await tx.messages.linkNoteRun(note.id, run.id);
  const linked = { ...note, note: note.note && { ...note.note, runId: run.id } };
  return { target, chain, place, conversation, note: linked, run };
}

/**
 * N4: the conversation's thread opens with the mark of the paired relay whose agent started
 * it; N7, P7: the note is posted as every note is (`postNote`), so an Open or Fold that lands
 * before its ref is stored is drawn. Nothing is shown when the platform is not connected here.
 */
async function showNote(
  deps: Pick<RelayInboundDeps, 'store' | 'platforms' | 'relayName'>,
  pairing: RelayPairingRecord,
  request: PromptRequest,
  { conversation, note, run, place }: Placed,
): Promise<void> {
  const platform = deps.platforms.get(conversation.platform);
  if (platform === undefined) return;
  const marker = conversationMarker({ paired: true, relayName: pairing.remoteName });
  const started = await platform.startThread(place.channelId, {
    as: { kind: 'system' },
    content: { kind: 'text', text: marker },
  });
  await deps.store.inWorkspace(pairing.workspaceId, (tx) =>
    tx.conversations.setThreadId(conversation.id, started.thread),
  );
  const target = {
    workspaceId: pairing.workspaceId,
    platform: conversation.platform,
    threadId: started.thread,
  };
  await postNote(deps, target, note, run, { name: request.sender.agent, avatarUrl: null });
}

/** R2: the named space, else the first the agent takes part in, with a channel on a platform connected here. */
async function placeFor(
  tx: StoreTx,
  deps: Pick<RelayInboundDeps, 'platforms'>,
  workspaceId: string,
  target: AgentRecord,
  spaceName: string | null,
  ownName: string,
): Promise<NotePlace> {
  const spaces = await tx.spaces.list(workspaceId);
  let candidates: SpaceRecord[];
  if (spaceName !== null) {
    const named = spaces.find((s) => s.name.toLowerCase() === spaceName.trim().toLowerCase());
    if (named === undefined)
      throw new RelayRefusal('not_found', `There is no space named "${spaceName}" on relay ${ownName}.`);
    candidates = [named];
  } else {
    candidates = [];
    for (const space of spaces) {
      const participants = await tx.spaces.listParticipants(space.id);
      if (participants.some((p) => p.kind === 'agent' && p.agentId === target.id)) candidates.push(space);
    }
  }
  const bindings = await tx.channelBindings.listForWorkspace(workspaceId);
  for (const space of candidates) {
    const binding = bindings.find((b) => b.spaceId === space.id && deps.platforms.has(b.platform));
    if (binding !== undefined) return { space, platform: binding.platform, channelId: binding.channelId };
  }
  throw new RelayRefusal(
    'not_found',
    `${target.name} takes part in no space with a chat channel on relay ${ownName}, so there is nowhere to start its conversation. Name a space with a channel.`,
  );
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
