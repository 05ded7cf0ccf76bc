/**
 * P16: a steering message is `pending` until the running turn takes it at a tool boundary
 * (`taken`), or the turn ends without it and it starts a turn of its own (`queued`).
 */
export const STEERING_STATES = ['pending', 'taken', 'queued'] as const;
export type SteeringState = (typeof STEERING_STATES)[number];
