import type { AttachmentRef, ImageInput } from '../model/attachment';
import type { AttachmentFetcher, AttachmentShelf } from '../ports/attachment-fetcher';
import type { Logger } from '../ports/logger';
import type { PromptAttachment } from '../prompt/prompt-input';
import { classifyAttachment } from './attachment-kind';
import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS, describeSize } from './attachment-limits';
import { distinctFileNames } from './safe-file-name';
import { textExcerpt } from './text-excerpt';

export interface AttachmentIntake {
  /** The platform's downloader; absent when the message's platform cannot fetch files. */
  fetcher: AttachmentFetcher | undefined;
  /** Where files the model is not shown are kept; absent, they are only named. */
  shelf: AttachmentShelf | undefined;
  /** The run's working folder (the files go under its `attachments/`). */
  workingDir: string;
  /** The runner takes image input (the built-in runners do; CLI agents do not). */
  takesImages: boolean;
  limits?: AttachmentLimits;
  logger: Logger;
  signal?: AbortSignal;
}

/** What the turn gets of its message's files: lines for the prompt, and the images for the model. */
export interface PreparedAttachments {
  attachments: PromptAttachment[];
  images: ImageInput[];
}

/**
 * P13, at the turn's start (never before the ack, T4): each attached file is downloaded within
 * its bounds (size, time), then shown to the model as an image, given as text (bounded, with a
 * sentence when cut) or saved in the working folder; whatever happens, the file's name and size
 * are in the prompt, and a failure is a sentence there and in the log, never a lost turn.
 */
export async function prepareAttachments(
  refs: readonly AttachmentRef[],
  intake: AttachmentIntake,
): Promise<PreparedAttachments> {
  const limits = intake.limits ?? DEFAULT_ATTACHMENT_LIMITS;
  const names = distinctFileNames(refs.map((ref) => ref.name));
  const prepared: PreparedAttachments = { attachments: [], images: [] };
  const budget: MessageBudget = { bytesLeft: limits.totalBytes, textLeft: limits.totalTextChars };

  for (const [index, ref] of refs.entries()) {
    const log = intake.logger.child({ attachment: ref.id, size: ref.size });
    const refused = refusalBeforeDownload(ref, intake, limits, budget.bytesLeft);
    if (refused !== null) {
      log.info({ reason: refused }, 'attachment not fetched');
      prepared.attachments.push(entryOf(ref, refused));
      continue;
    }
    const result = await (intake.fetcher as AttachmentFetcher).download(ref, {
      maxBytes: Math.min(limits.fileBytes, budget.bytesLeft),
      timeoutMs: limits.downloadTimeoutMs,
      ...(intake.signal === undefined ? {} : { signal: intake.signal }),
    });
    if (!result.ok) {
      log.warn({ reason: result.reason, sentence: result.sentence }, 'attachment download failed');
      prepared.attachments.push(entryOf(ref, `not fetched: ${result.sentence}`));
      continue;
    }
    budget.bytesLeft -= result.bytes.length;
    const file: FetchedFile = {
      ref,
      fileName: names[index] ?? 'attachment',
      bytes: result.bytes,
      mimeType: result.mimeType,
      log,
    };
    await placeFile(file, intake, limits, budget, prepared);
  }
  return prepared;
}

/** P13: what is left of the message's bounds, across its files. */
interface MessageBudget {
  bytesLeft: number;
  textLeft: number;
}

/** A file that was downloaded, with the name it is saved under and its own log. */
interface FetchedFile {
  ref: AttachmentRef;
  fileName: string;
  bytes: Uint8Array;
  mimeType: string | null;
  log: Logger;
}

/** The prompt's line for a file: its name and size, and what became of it. */
function entryOf(
  ref: AttachmentRef,
  note: string,
  size = ref.size,
  text?: PromptAttachment['text'],
): PromptAttachment {
  return {
    name: ref.name,
    size,
    mimeType: ref.mimeType,
    note,
    ...(text === undefined ? {} : { text }),
  };
}

/** P13: a downloaded file shown as an image, given as text, or saved in the working folder. */
async function placeFile(
  file: FetchedFile,
  intake: AttachmentIntake,
  limits: AttachmentLimits,
  budget: MessageBudget,
  prepared: PreparedAttachments,
): Promise<void> {
  const { ref, bytes } = file;
  const kind = classifyAttachment(bytes, file.mimeType ?? ref.mimeType);
  if (kind.kind === 'image') {
    if (intake.takesImages && bytes.length <= limits.imageBytes) {
      prepared.images.push({
        name: ref.name,
        mediaType: kind.mediaType,
        base64: Buffer.from(bytes).toString('base64'),
      });
      prepared.attachments.push(entryOf(ref, 'shown to you as an image.', bytes.length));
      return;
    }
    const why = intake.takesImages
      ? `too large to show as an image (over ${describeSize(limits.imageBytes)}); `
      : 'this agent takes no image input; ';
    prepared.attachments.push(entryOf(ref, await saveFile(file, intake, why), bytes.length));
    return;
  }
  if (kind.kind === 'text' && budget.textLeft > 0) {
    prepared.attachments.push(await textEntry(file, intake, limits, budget));
    return;
  }
  const why =
    kind.kind === 'text'
      ? `the message's text files together exceed the ${limits.totalTextChars.toLocaleString('en-US')} characters shown; `
      : '';
  prepared.attachments.push(entryOf(ref, await saveFile(file, intake, why), bytes.length));
}

/** A text file's text in the prompt, bounded; when cut, the whole file is saved and named. */
async function textEntry(
  file: FetchedFile,
  intake: AttachmentIntake,
  limits: AttachmentLimits,
  budget: MessageBudget,
): Promise<PromptAttachment> {
  const { ref, bytes } = file;
  const excerpt = textExcerpt(bytes, Math.min(limits.textChars, budget.textLeft));
  budget.textLeft -= excerpt.text.length;
  if (!excerpt.cut)
    return entryOf(ref, 'its text follows below.', bytes.length, { body: excerpt.text, cutNote: null });
  const saved = await saveFile(file, intake, '');
  return entryOf(ref, 'its beginning follows below.', bytes.length, {
    body: excerpt.text,
    cutNote: `(${ref.name} is cut here: ${excerpt.text.length.toLocaleString('en-US')} of its ${excerpt.totalChars.toLocaleString('en-US')} characters are shown. The whole file: ${saved})`,
  });
}

/** P13: the file kept in the working folder; the sentence says where, or why it is not. */
async function saveFile(file: FetchedFile, intake: AttachmentIntake, why: string): Promise<string> {
  if (intake.shelf === undefined)
    return `${why}it was received but not kept: there is no working folder for files.`;
  try {
    const path = await intake.shelf.save(intake.workingDir, file.fileName, file.bytes);
    return `${why}saved as \`${path}\` in your working folder.`;
  } catch (error) {
    file.log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'attachment could not be saved',
    );
    return `${why}it could not be saved in your working folder.`;
  }
}

/** Why a file is not even downloaded, or null. */
function refusalBeforeDownload(
  ref: AttachmentRef,
  intake: AttachmentIntake,
  limits: AttachmentLimits,
  bytesLeft: number,
): string | null {
  if (ref.url === null)
    return `not fetched: the platform gave no download link for it${ref.unavailable === undefined ? '' : ` (${ref.unavailable})`}.`;
  if (intake.fetcher === undefined) return 'not fetched: this chat connection cannot download files.';
  if (ref.size > limits.fileBytes)
    return `not fetched: it is larger than the ${describeSize(limits.fileBytes)} Summon fetches of one file.`;
  if (ref.size > bytesLeft)
    return `not fetched: the message's files together are larger than the ${describeSize(limits.totalBytes)} Summon fetches of one message.`;
  return null;
}
