import type { MemberRole } from '../model/member';
import type { AgentRecord, SkillRecord, SpaceRecord } from '../model/records';

/**
 * What the composer reads of an agent. A narrow pick, so that fields a prompt must never
 * carry (the runner `command`, the avatar, the adapter) cannot leak into it even when a
 * whole `AgentRecord` is handed in.
 */
export type PromptAgent = Pick<
  AgentRecord,
  'name' | 'title' | 'persona' | 'systemPrompt' | 'skills' | 'contextSize'
>;

/** A5: a skill linked into the agent's folder; only its front-matter description is listed. */
export type PromptSkill = Pick<SkillRecord, 'name' | 'description'>;

export type PromptSpace = Pick<SpaceRecord, 'name' | 'context' | 'mode' | 'repos'>;

/** M13: an agent of the space; `reportsTo` is the superior's name, null for a top-level agent. */
export interface RosterAgent {
  name: string;
  title: string;
  reportsTo: string | null;
}

export interface RosterPerson {
  nickname: string;
  role: MemberRole;
}

/** M13: the space's participants. The summoned agent may appear here; it is left out of its own roster. */
export interface PromptRoster {
  agents: readonly RosterAgent[];
  people: readonly RosterPerson[];
}

/** M13: who started this turn: a person by nickname, or an agent by name. */
export type Summoner = { kind: 'person'; nickname: string } | { kind: 'agent'; name: string };

export type HistoryAuthor =
  | { kind: 'person'; name: string }
  | { kind: 'agent'; name: string }
  | { kind: 'system' };

/** One earlier message of the conversation; the message that started this turn is `prompt`, not history. */
export interface HistoryMessage {
  author: HistoryAuthor;
  text: string;
  /** N1: a prompt an agent sent into the conversation. */
  isNote?: boolean;
  at: Date;
}

/** N11, N12: the turn was started by another agent's note. Unknown parts are left out. */
export interface NoteOrigin {
  /** Name of the sending relay; absent for this relay or a relay without a name (N5). */
  relayName?: string;
  /** N2: the sending agent's conversation, by its current title. */
  sessionTitle?: string;
  /** The sending agent's model. */
  model?: string;
  fromAgent: string;
}

/** A5: a skill body loaded by `/skill:<name>` for this turn only. */
export interface LoadedSkill {
  name: string;
  body: string;
}

/**
 * Everything one turn's prompt is made of. The composer uses only these fields; it takes
 * no environment or configuration object, so no secret can reach a prompt through it.
 */
export interface PromptInput {
  agent: PromptAgent;
  /** A5: the skills linked into the agent's folder; a name on the agent with no record here is "not installed". */
  skills: readonly PromptSkill[];
  space: PromptSpace;
  roster: PromptRoster;
  summoner: Summoner;
  /** Earlier messages of the conversation, oldest first (they are ordered by `at` anyway). */
  history: readonly HistoryMessage[];
  /** The text the agent is asked to work on, mentions already stripped (M7). */
  prompt: string;
  note?: NoteOrigin;
  /** M23: which tools the runner gives the agent; handoff tools are named only when present. */
  tools?: { agentHandoff: boolean };
  loadedSkills?: readonly LoadedSkill[];
  /** P13: the files attached to the turn's message. */
  attachments?: readonly PromptAttachment[];
}

/**
 * P13: a file attached to the turn's message, as the prompt names it: its name, size and what
 * became of it (shown as an image, its text below, saved in the working folder, or why not).
 */
export interface PromptAttachment {
  name: string;
  size: number;
  mimeType: string | null;
  /** What became of it, one sentence: "shown to you as an image", "saved as `attachments/a.zip` …". */
  note: string;
  /** A text file's content, bounded; `cutNote` says how much was left out. */
  text?: { body: string; cutNote: string | null };
}
