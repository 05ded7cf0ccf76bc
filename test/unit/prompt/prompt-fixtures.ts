import type { AgentRecord, SkillRecord, SpaceRecord } from '../../../src/core/model/records';
import type { HistoryMessage, PromptInput } from '../../../src/core/prompt';

export const T0 = new Date('2025-03-01T10:00:00.000Z');
export const minutesAfter = (minutes: number): Date => new Date(T0.getTime() + minutes * 60_000);

/** A whole record, as the store returns it, so tests prove the composer reads only what it should. */
export const agentRecord = (overrides: Partial<AgentRecord> = {}): AgentRecord => ({
  id: 'agent-engineer',
  workspaceId: 'ws-1',
  name: 'engineer',
  title: 'Engineer',
  persona: 'You write and fix code. You keep changes small and explain them.',
  systemPrompt: null,
  skills: [],
  adapterId: 'command',
  modelId: 'model-x',
  effort: 'high',
  contextSize: null,
  silenceTimeoutMinutes: 15,
  reportsToId: 'agent-ceo',
  avatarUrl: 'https://avatars.example/engineer.png',
  command: 'runner --api-key SECRET-IN-COMMAND',
  createdAt: T0,
  ...overrides,
});

export const skillRecord = (name: string, description: string): SkillRecord => ({
  id: `skill-${name}`,
  workspaceId: 'ws-1',
  name,
  description,
  body: `SECRET-BODY-OF-${name}`,
  createdAt: T0,
});

export const spaceRecord = (overrides: Partial<SpaceRecord> = {}): SpaceRecord => ({
  id: 'space-payments',
  workspaceId: 'ws-1',
  name: 'payments',
  context: 'The payments service: checkout, refunds and invoices.',
  mode: 'chat',
  autonomy: 'actWithApproval',
  dedicated: false,
  whileRunning: 'steer',
  repos: ['acme/payments-api'],
  createdAt: T0,
  ...overrides,
});

export const personSays = (name: string, text: string, minute: number): HistoryMessage => ({
  author: { kind: 'person', name },
  text,
  at: minutesAfter(minute),
});

export const agentSays = (name: string, text: string, minute: number, isNote = false): HistoryMessage => ({
  author: { kind: 'agent', name },
  text,
  at: minutesAfter(minute),
  ...(isNote ? { isNote } : {}),
});

export const systemSays = (text: string, minute: number): HistoryMessage => ({
  author: { kind: 'system' },
  text,
  at: minutesAfter(minute),
});

/** A11's seeded org chart in a space with two people. */
export const SEEDED_ROSTER: PromptInput['roster'] = {
  agents: [
    { name: 'ceo', title: 'Chief Executive', reportsTo: null },
    { name: 'architect', title: 'Architect', reportsTo: 'ceo' },
    { name: 'engineer', title: 'Engineer', reportsTo: 'ceo' },
  ],
  people: [
    { nickname: 'dana', role: 'owner' },
    { nickname: 'sam', role: 'member' },
  ],
};

/** A plain person summons in a chat-mode space. */
export const baseInput = (overrides: Partial<PromptInput> = {}): PromptInput => ({
  agent: agentRecord(),
  skills: [],
  space: spaceRecord(),
  roster: SEEDED_ROSTER,
  summoner: { kind: 'person', nickname: 'dana' },
  history: [
    personSays('dana', 'Checkout fails for cards issued in Brazil.', 0),
    agentSays('architect', 'The card country check lives in `checkout/validate.ts`.', 2),
  ],
  prompt: 'fix the Brazil card bug and add a test',
  ...overrides,
});
