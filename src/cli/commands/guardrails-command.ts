import type { Command } from 'commander';
import { explainGuardrail } from '../../core/guardrails/explain-for-workspace';
import { type CliContext, withRuntime } from '../cli-context';

export function registerGuardrailsCommand(program: Command, context: CliContext): void {
  const guardrails = program.command('guardrails').description('inspect action guardrails');
  guardrails
    .command('explain')
    .description('show the decision for an action and which rule decided it, and why')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .requiredOption('-a, --agent <name>', 'the agent that would act')
    .option('-s, --space <name>', 'the space it would act in')
    .requiredOption(
      '--action <action>',
      'commit | push_to_remote | open_pull_request | tracker_write | network | mcp',
    )
    .action((options: { workspace: string; agent: string; space?: string; action: string }) =>
      withRuntime(context, async ({ store }) => {
        const resolution = await explainGuardrail(store, {
          workspace: options.workspace,
          agent: options.agent,
          space: options.space ?? null,
          action: options.action,
        });
        context.output.out(
          `${options.action}: ${resolution.decision}\n${resolution.steps.map((s) => `  ${s}`).join('\n')}`,
        );
      }),
    );
}
