import path from 'node:path';
import { ROOT, sourceFiles } from '../../../scripts/structure/import-graph';
import {
  allFunctions,
  bigFolders,
  FILE_LINES,
  FOLDER_FILES,
  FUNCTION_LINES,
  longCoreFunctions,
  longFiles,
} from '../../../scripts/structure/shape-goals';

/**
 * AGENTS.md's shape goals hold for every file of `src`, as `npm run structure` counts them:
 * a change that grows a file, a core function or a folder past its goal fails here, not later.
 */
describe('the source tree keeps its shape goals', () => {
  const src = path.join(ROOT, 'src');
  const files = sourceFiles(src);

  it(`no file in src is over ${FILE_LINES} lines`, () => {
    expect(longFiles(files)).toEqual([]);
  });

  it(`no function in src/core is over ${FUNCTION_LINES} lines`, () => {
    expect(longCoreFunctions(allFunctions(files)).map((fn) => `${fn.file} ${fn.name} ${fn.lines}`)).toEqual(
      [],
    );
  });

  it(`no folder in src holds over ${FOLDER_FILES} .ts files (catalogs exempt)`, () => {
    expect(bigFolders(src)).toEqual([]);
  });

  it('reads the whole tree (the goals are not met by reading nothing)', () => {
    expect(files.length).toBeGreaterThan(400);
  });
});
