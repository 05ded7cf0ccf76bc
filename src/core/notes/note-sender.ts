/**
 * Where a note came from (N2, N4, N5, N12). Every part may be unknown; unknown parts are
 * left out of what is shown (N2).
 */
export interface NoteSender {
  /** The sending agent's relay, by its name when it has one (N5). */
  relayName?: string | null;
  /** True when the sending agent runs on a paired relay; otherwise it is this relay (N4). */
  paired?: boolean;
  /** The title of the conversation the sending agent runs in, as it is now (N2). */
  sessionTitle?: string | null;
  /** The sending agent's model (N12). */
  modelId?: string | null;
}

/** A part as one line of text, or undefined when it is unknown or blank. */
export function oneLine(text: string | null | undefined): string | undefined {
  const line = text?.replace(/\s+/g, ' ').trim();
  return line ? line : undefined;
}

/**
 * N5: the sender of a note row: the relay's name, `this relay` when it has none. A paired
 * relay without a known name is `a paired relay`, never `this relay`.
 */
export function relayLabel(sender: NoteSender): string {
  return oneLine(sender.relayName) ?? (sender.paired ? 'a paired relay' : 'this relay');
}
