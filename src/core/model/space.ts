export const SPACE_MODES = ['chat', 'plan', 'review'] as const;
export type SpaceMode = (typeof SPACE_MODES)[number];

/** G2b: the autonomy dial of a space. */
export const AUTONOMY_LEVELS = ['proposeOnly', 'actWithApproval', 'actFreely'] as const;
export type Autonomy = (typeof AUTONOMY_LEVELS)[number];
