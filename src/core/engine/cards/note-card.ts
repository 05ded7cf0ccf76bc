import type { MessageRecord } from '../../model/conversation-records';
import type { RunRecord } from '../../model/records';
import { noteDisplay, noteRowText, noteTurnStateOf } from '../../notes';
import type { NoteSource, OutboundMessage } from '../../ports/chat-platform';

/**
 * P4, N5, N9: the message that shows a note: folded to one row once its turn has answered,
 * failed or stopped, open while it works, unless a person chose otherwise; with its badge (N1–N3).
 */
export function noteMessage(
  note: MessageRecord,
  run: RunRecord | null,
  sender: { name: string; avatarUrl: string | null },
  relayName: string | null,
  /** N1–N3: the badge (`noteSourceOf`); null leaves it out. */
  source: NoteSource | null,
): OutboundMessage {
  const fields = note.note;
  const turnState =
    run === null ? 'working' : noteTurnStateOf(run.status, { stopped: run.liveness === 'dead' });
  const row = noteRowText({
    // N5: a note from a paired relay names that relay; this relay's own, this relay's name.
    sender:
      fields?.senderRelay != null
        ? { relayName: fields.senderRelay, paired: true, sessionTitle: fields.sourceTitle }
        : { relayName, sessionTitle: fields?.sourceTitle ?? null },
    turnState,
    sentAt: note.createdAt,
  });
  return {
    as: { kind: 'agent', name: sender.name, avatarUrl: sender.avatarUrl },
    content: {
      kind: 'note',
      card: {
        messageId: note.id,
        row,
        text: note.text,
        open: noteDisplay(fields?.foldState ?? 'auto', turnState) === 'open',
        ...(source === null ? {} : { source }),
      },
    },
  };
}
