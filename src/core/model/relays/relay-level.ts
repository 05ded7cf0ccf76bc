/**
 * R1: what a paired relay's agents may do in a workspace, per direction: `read` lists agents
 * and sessions, `prompt` also sends notes (`send_to_agent`, `ask_agent`), `full` also answers
 * questions (N13).
 */
export const RELAY_LEVELS = ['read', 'prompt', 'full'] as const;
export type RelayLevel = (typeof RELAY_LEVELS)[number];
