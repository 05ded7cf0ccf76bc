/**
 * P12: what the app's mention answers when it starts nobody: alone, or where no agent answers
 * without being named (M3 finds none). How to reach an agent here, and who is here.
 * Platform-neutral text: each platform renders `@name` and backticks its own way.
 */
export function appHelp(agentsInSpace: readonly string[], options: { alone: boolean }): string {
  const example = agentsInSpace[0] ?? 'engineer';
  const who =
    agentsInSpace.length === 0
      ? 'No agent takes part in this space yet: mention one to add it.'
      : `Agents here: ${agentsInSpace.map((name) => `@${name}`).join(', ')}.`;
  const lead = options.alone
    ? `Summon puts agents in this chat. Mention one to start it (\`@${example} fix the login bug\`), or mention me with your request and the agent that spoke last here (or the space's lead) answers.`
    : `No agent here answers without being named: mention one with your request (\`@${example} fix the login bug\`).`;
  return [lead, who, '`/summon help` lists the commands.'].join('\n');
}
