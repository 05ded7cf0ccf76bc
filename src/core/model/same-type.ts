/**
 * True when `A` and `B` are the same type, optional and readonly fields included. A record
 * declared here that a zod schema elsewhere also reads is checked against the schema's output
 * with it (`relays/relay-protocol.ts`, `skills/skill-lock.ts`), so the model stays free of zod
 * and the two cannot drift apart.
 */
export type SameType<A, B> =
  (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;
