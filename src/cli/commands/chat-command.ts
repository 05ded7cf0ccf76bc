import type { Command } from 'commander';
import { runLocalChat } from '../../app/local-chat';
import { type CliContext, withRuntime } from '../cli-context';

export function registerChatCommand(program: Command, context: CliContext): void {
  program
    .command('chat')
    .description('open the local chat in this terminal (workspace default, space general, as member you)')
    .action(() =>
      withRuntime(context, (runtime) =>
        runLocalChat(runtime, { input: process.stdin, output: process.stdout }),
      ),
    );
}
