import { ValidationError } from '../errors';
import type { SpaceMode } from '../model/space';
import type { AnyToolDefinition } from './tool-definition';

/**
 * A9: the tool surface of a space mode. `chat` gets every tool meant for it; `plan` and
 * `review` are read-only, so a `write` tool is left out even if it names the mode; `plan`
 * adds `submit_plan` (a read tool for plan mode only). A forbidden tool is absent, not refused.
 */
export function toolSurface(mode: SpaceMode, definitions: readonly AnyToolDefinition[]): AnyToolDefinition[] {
  const surface = definitions.filter(
    (definition) => definition.modes.includes(mode) && (mode === 'chat' || definition.access === 'read'),
  );
  const names = new Set<string>();
  for (const definition of surface) {
    if (names.has(definition.name)) {
      throw new ValidationError(`Two tools named "${definition.name}" are offered in ${mode} mode.`);
    }
    names.add(definition.name);
  }
  return surface;
}
