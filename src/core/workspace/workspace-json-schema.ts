import { z } from 'zod';
import { workspaceFileSchema } from './workspace-file-schema';

/**
 * The workspace file's schema for editors (`# yaml-language-server: $schema=...`). Cross-field
 * rules (command only with adapter command, names that must exist) are checked by `apply`.
 */
export function workspaceJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(workspaceFileSchema, { target: 'draft-2020-12', io: 'input' });
}

export const renderWorkspaceJsonSchema = (): string => `${JSON.stringify(workspaceJsonSchema(), null, 2)}\n`;
