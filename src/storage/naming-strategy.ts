import { DefaultNamingStrategy } from 'typeorm';

/** Entity properties are camelCase like the core's records; the hand-written schema is snake_case. */
export class SnakeNamingStrategy extends DefaultNamingStrategy {
  override columnName(propertyName: string, customName: string | undefined, prefixes: string[]): string {
    return customName ?? [...prefixes, propertyName].map(toSnakeCase).join('_');
  }
}

export const toSnakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
