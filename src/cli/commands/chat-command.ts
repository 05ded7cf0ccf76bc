import type { Command } from 'commander';
import { runLocalChat } from '../../app/local-chat';
import { verifySkillsAtStart } from '../../app/skills-runtime';
import { type CliContext, withRuntime } from '../cli-context';

export function registerChatCommand(program: Command, context: CliContext): void {
  program
    .command('chat')
    .description('open the local chat in this terminal (workspace default, space general, as member you)')
    .action(() =>
      withRuntime(context, async (runtime) => {
        // A6: installed skills whose files no longer match skills-lock.json are refused, not loaded.
        await verifySkillsAtStart(runtime);
        // G3: `summon chat` serves no HTTP, so there is no git gateway to sync repos through:
        // runs work in their agent folders (`summon start` serves the gateway and uses it).
        await runLocalChat(runtime, { input: process.stdin, output: process.stdout }, { workspaces: null });
      }),
    );
}
