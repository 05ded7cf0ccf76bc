import { describeSize } from '../../attachments/attachment-limits';
import { fenceFor } from '../../attachments/text-excerpt';
import type { PromptSection } from '../composed-prompt';
import type { PromptAttachment } from '../prompt-input';
import { section } from './section';

/**
 * P13: the files attached to the turn's message: every file's name and size and what became
 * of it, then each text file's content in a fence it cannot close.
 */
export function attachmentsSection(attachments: readonly PromptAttachment[]): PromptSection | null {
  if (attachments.length === 0) return null;
  const count = attachments.length === 1 ? 'one file' : `${attachments.length} files`;
  const lines = attachments.map((file) => {
    const type = file.mimeType === null ? '' : `${file.mimeType}, `;
    return `- ${file.name} (${type}${describeSize(file.size)}): ${file.note}`;
  });
  const texts = attachments.flatMap((file) => {
    if (file.text === undefined) return [];
    const fence = fenceFor(file.text.body);
    const cut = file.text.cutNote === null ? '' : `\n\n${file.text.cutNote}`;
    return [`### ${file.name}\n\n${fence}\n${file.text.body}\n${fence}${cut}`];
  });
  return section(
    'attachments',
    'Attached files',
    [`The message came with ${count}:`, lines.join('\n'), ...texts].join('\n\n'),
  );
}
