export const SPACE_MODES = ['chat', 'plan', 'review'] as const;
export type SpaceMode = (typeof SPACE_MODES)[number];

/** G2b: the autonomy dial of a space. */
export const AUTONOMY_LEVELS = ['proposeOnly', 'actWithApproval', 'actFreely'] as const;
export type Autonomy = (typeof AUTONOMY_LEVELS)[number];

/**
 * P16: what a person's message does in a thread where an agent's built-in turn is running:
 * `steer` joins that turn at its next tool boundary, `queue` starts a turn after it.
 */
export const WHILE_RUNNING = ['steer', 'queue'] as const;
export type WhileRunning = (typeof WHILE_RUNNING)[number];
