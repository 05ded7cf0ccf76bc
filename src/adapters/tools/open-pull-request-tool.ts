import { z } from 'zod';
import { type AnyToolDefinition, defineTool } from '../../core/tools/tool-definition';
import type { OpenPullRequestInput, OpenPullRequestResult } from '../github/pull-requests';

/** The `open_pull_request` operation (src/adapters/github/pull-requests.ts). */
export interface PullRequestOpener {
  open(input: OpenPullRequestInput, signal?: AbortSignal): Promise<OpenPullRequestResult>;
}

const input = z.object({
  repo: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be "owner/name"')
    .describe('The repository, "owner/name"; one of this space\'s repositories.'),
  head: z.string().min(1).describe('The branch with your changes (already pushed).'),
  base: z.string().min(1).describe('The branch to merge into, e.g. main.'),
  title: z.string().min(1).max(256).describe('The pull request title.'),
  body: z.string().optional().describe('The description (Markdown).'),
  draft: z.boolean().optional().describe('Open it as a draft.'),
});

/**
 * `open_pull_request` (G1): opens a pull request on one of the space's repositories
 * and posts its link in the thread. Offered only in `chat` mode and only when GitHub is
 * configured (the registry leaves it out otherwise).
 */
export function openPullRequestTool(pullRequests: PullRequestOpener): AnyToolDefinition {
  return defineTool({
    name: 'open_pull_request',
    description:
      'Open a GitHub pull request on a repository of this space, from a branch you have pushed. Its link is posted in the thread.',
    input,
    access: 'write',
    modes: ['chat'],
    // G1, G2, G4: the `open_pull_request` guardrail is applied by the operation itself, at the
    // moment of the call, with the repo and branches on its card; classifying it here as well
    // would ask twice.
    classify: () => [],
    run: async (call, scope, signal) => {
      const result = await pullRequests.open(
        {
          runId: scope.runId,
          repo: call.repo,
          head: call.head,
          base: call.base,
          title: call.title,
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.draft === undefined ? {} : { draft: call.draft }),
        },
        signal,
      );
      return result.ok
        ? { ok: true, output: `Opened pull request #${result.number}: ${result.url}` }
        : { ok: false, output: result.reason };
    },
  });
}
