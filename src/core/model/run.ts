/** A12: run status and liveness are stored; an agent's live status is derived from them. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_LIVENESS = ['ok', 'blocked', 'stalled', 'looping', 'failed', 'dead'] as const;
export type RunLiveness = (typeof RUN_LIVENESS)[number];

export const AGENT_LIVE_STATUSES = ['neverRun', 'running', 'failed', 'blocked', 'idle'] as const;
export type AgentLiveStatus = (typeof AGENT_LIVE_STATUSES)[number];
