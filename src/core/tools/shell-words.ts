/**
 * Splits a shell command line into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines
 * and the insides of `$( … )` and backticks) and each into words, honouring quotes. Not a
 * shell: good enough to classify what a command does, erring towards seeing more commands.
 */
export function simpleCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      inWord = true;
      i = end === -1 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\') j++;
        j++;
      }
      const inner = line.slice(i + 1, j);
      // A command substitution inside double quotes is still a command.
      for (const nested of substitutions(inner)) commands.push(...simpleCommands(nested));
      word += inner;
      inWord = true;
      i = j;
    } else if (c === '\\') {
      word += line[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else if (c === ';' || c === '\n' || c === '|' || c === '&' || c === '(' || c === ')' || c === '`') {
      endCommand();
    } else if (c === '$' && line[i + 1] === '(') {
      endCommand();
      i++;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

function substitutions(text: string): string[] {
  return [...text.matchAll(/\$\(([^)]*)\)|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** Words that run the next word as the command (`sudo git push` is a push). */
const PREFIXES = new Set(['sudo', 'env', 'time', 'nohup', 'nice', 'command', 'exec', 'xargs', 'timeout']);

/** The command's words from the program on: env assignments and wrappers dropped. */
export function programWords(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (PREFIXES.has(w)) {
      i++;
      // `timeout 5 cmd`, `nice -n 5 cmd`: skip the wrapper's options and numbers
      while (i < words.length && /^(-|\d)/.test(words[i] as string)) i++;
    } else break;
  }
  const rest = words.slice(i);
  const program = rest[0];
  if (program !== undefined) rest[0] = program.split('/').pop() ?? program;
  return rest;
}
