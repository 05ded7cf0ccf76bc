/** N13: what an answer to a question card means: an option by its number (from 1) or free text. */
export type ParsedAnswer = { ok: true; text: string } | { ok: false; reason: string };

export function parseAnswer(answer: string, options: readonly string[]): ParsedAnswer {
  const trimmed = answer.trim();
  if (trimmed === '') return { ok: false, reason: 'An answer cannot be empty.' };
  const number = /^#?(\d{1,4})$/.exec(trimmed)?.[1];
  if (number === undefined || options.length === 0) return { ok: true, text: trimmed };
  const option = options[Number(number) - 1];
  if (option === undefined) {
    return {
      ok: false,
      reason: `There is no option ${number}: answer 1–${options.length}, or in your own words.`,
    };
  }
  return { ok: true, text: option };
}
