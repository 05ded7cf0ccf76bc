import { DEFAULT_SILENCE_TIMEOUT_MINUTES } from '../model/agent';
import type { AgentFields } from '../model/records';

/** A new agent's attributes before anything is said about it: no adapter, no model (A10). */
export function newAgentDefaults(name: string): AgentFields {
  return {
    name,
    title: '',
    persona: '',
    systemPrompt: null,
    skills: [],
    adapterId: null, // A10: no adapter and no model = the built-in loop on the default model
    modelId: null,
    effort: null,
    contextSize: null,
    silenceTimeoutMinutes: DEFAULT_SILENCE_TIMEOUT_MINUTES,
    reportsToId: null,
    avatarUrl: null,
    command: null,
  };
}
