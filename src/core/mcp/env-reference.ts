/** E2: `${env:NAME}`, a reference to a variable of Summon's environment, as a file writes it. */
export const envReference = (name: string): string => `\${env:${name}}`;
