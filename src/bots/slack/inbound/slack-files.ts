import { type AttachmentRef, MAX_ATTACHMENTS_PER_MESSAGE } from '../../../core/model/attachment';

/**
 * The fields of a Slack file object (`@slack/types` `File`, as message events carry it) that
 * P13 records: enough to download it later with the bot token. Nothing else is kept.
 */
interface SlackFileObject {
  id?: unknown;
  name?: unknown;
  title?: unknown;
  mimetype?: unknown;
  size?: unknown;
  url_private?: unknown;
  mode?: unknown;
  is_external?: unknown;
  file_access?: unknown;
}

/** Modes of a file Slack does not serve (deleted, over a free plan's limit). */
const UNSERVED_MODES = new Set(['tombstone', 'hidden_by_limit']);

/**
 * P13, T4: the attachment descriptions of a message event's `files`, decided from the event
 * alone (nothing is fetched before the ack). A file Slack does not host (`is_external`: a
 * Google Drive link, …), a deleted one or one hidden by the plan's limit has no download link.
 */
export function slackFileRefs(files: unknown): AttachmentRef[] {
  if (!Array.isArray(files)) return [];
  return files.slice(0, MAX_ATTACHMENTS_PER_MESSAGE).flatMap((item): AttachmentRef[] => {
    if (typeof item !== 'object' || item === null) return [];
    const file = item as SlackFileObject;
    if (typeof file.id !== 'string') return [];
    const name =
      typeof file.name === 'string' && file.name !== ''
        ? file.name
        : typeof file.title === 'string' && file.title !== ''
          ? file.title
          : file.id;
    const mode = typeof file.mode === 'string' ? file.mode : null;
    const unavailable =
      mode !== null && UNSERVED_MODES.has(mode)
        ? `Slack shows it as ${mode === 'tombstone' ? 'deleted' : 'hidden by the plan’s file limit'}`
        : file.is_external === true
          ? 'it is a link to a file outside Slack'
          : typeof file.url_private !== 'string'
            ? 'Slack sent no link with the message'
            : null;
    return [
      {
        id: file.id,
        name,
        size: typeof file.size === 'number' && file.size >= 0 ? file.size : 0,
        mimeType: typeof file.mimetype === 'string' && file.mimetype !== '' ? file.mimetype : null,
        url: unavailable === null ? (file.url_private as string) : null,
        ...(unavailable === null ? {} : { unavailable }),
      },
    ];
  });
}
