/** What became of one inbound message once routed (P6, P8, M1–M12). */
export type ReceiveOutcome =
  | { kind: 'duplicate' }
  /** P8: unknown account, a role that cannot start work, an unbound channel; the sender was told. */
  | { kind: 'refused'; reason: string }
  | { kind: 'accepted'; conversationId: string; runIds: string[] };
