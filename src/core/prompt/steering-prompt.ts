/**
 * P16: how a person's message that joins a running turn reads to the model: a new user
 * message, after the tool results of the boundary it joined at, saying who wrote it.
 */
export const steeringPrompt = (from: string, text: string): string =>
  `${from} (person) wrote in the thread while you were working:\n\n${text}`;
