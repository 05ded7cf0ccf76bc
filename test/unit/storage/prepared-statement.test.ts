import {
  PreparedStatement,
  preparesFor,
  renderStatements,
} from '../../../src/storage/store/prepared-statement';

/** T3: how a connection's messages carry prepared statements (no database: the rendering alone). */
describe('T3: prepared statements in a connection’s messages', () => {
  const byId = new PreparedStatement(['uuid'], 'SELECT * FROM runs WHERE id = $1');
  const byName = new PreparedStatement(['text'], 'SELECT * FROM agents WHERE name = $1');
  const id = "'6f1c2b1e-9a38-4f6e-8c1e-0d8f0b6a1e11'::uuid";

  it('a statement new to the connection is prepared in front of its first run, then only run', () => {
    const connection = {};
    const first = renderStatements(connection, ['START TRANSACTION', byId.with(id), byId.with(id)]);
    expect(first.sql.split(';\n')).toEqual([
      'START TRANSACTION',
      `PREPARE ${byId.name}(uuid) AS SELECT * FROM runs WHERE id = $1`,
      `EXECUTE ${byId.name}(${id})`,
      `EXECUTE ${byId.name}(${id})`,
    ]);
    // The PREPARE's result is not the caller's.
    expect(first.theirs(['start', 'prepare', 'run 1', 'run 2'])).toEqual(['start', 'run 1', 'run 2']);
    const second = renderStatements(connection, [byId.with(id)]);
    expect(second.sql).toBe(`EXECUTE ${byId.name}(${id})`);
    // Another connection (another session) prepares it for itself.
    expect(renderStatements({}, [byId.with(id)]).sql).toContain('PREPARE');
  });

  it('after a failed message that prepared, the connection deallocates everything and prepares again', () => {
    const connection = {};
    renderStatements(connection, [byName.with("'alice'")]);
    const failing = renderStatements(connection, ['SELECT 1/0', byId.with(id)]);
    failing.failed(Object.assign(new Error('division by zero'), { code: '22012' }));
    const next = renderStatements(connection, [byId.with(id), byName.with("'bob'")]);
    expect(next.sql.split(';\n')).toEqual([
      'DEALLOCATE ALL',
      `PREPARE ${byId.name}(uuid) AS SELECT * FROM runs WHERE id = $1`,
      `EXECUTE ${byId.name}(${id})`,
      `PREPARE ${byName.name}(text) AS SELECT * FROM agents WHERE name = $1`,
      `EXECUTE ${byName.name}('bob')`,
    ]);
    expect(next.theirs(['deallocate', 'prepare', 'a', 'prepare', 'b'])).toEqual(['a', 'b']);
  });

  it('a failed message that prepared nothing leaves the connection’s statements as they were', () => {
    const connection = {};
    renderStatements(connection, [byId.with(id)]);
    renderStatements(connection, [byId.with(id)]).failed(Object.assign(new Error('x'), { code: '23505' }));
    expect(renderStatements(connection, [byId.with(id)]).sql).toBe(`EXECUTE ${byId.name}(${id})`);
  });

  it('a statement the session does not have (26000), or whose plan no longer fits (0A000), is prepared again', () => {
    for (const code of ['26000', '0A000']) {
      const connection = {};
      renderStatements(connection, [byId.with(id)]);
      renderStatements(connection, [byId.with(id)]).failed(Object.assign(new Error('gone'), { code }));
      expect(renderStatements(connection, [byId.with(id)]).sql).toMatch(/^DEALLOCATE ALL;\nPREPARE /);
    }
  });

  it('warming a connection prepares only what it lacks, and its later messages only run them', () => {
    const connection = {};
    renderStatements(connection, [byId.with(id)]);
    const warm = preparesFor(connection, [byId, byName, byName]);
    expect(warm?.sql).toBe(`PREPARE ${byName.name}(text) AS SELECT * FROM agents WHERE name = $1`);
    expect(preparesFor(connection, [byId, byName])).toBeNull();
    expect(renderStatements(connection, [byName.with("'alice'")]).sql).toBe(
      `EXECUTE ${byName.name}('alice')`,
    );
  });

  it('a warming message that failed leaves the connection deallocated and prepared again at its next use', () => {
    const connection = {};
    preparesFor(connection, [byId])?.failed();
    expect(renderStatements(connection, [byId.with(id)]).sql.split(';\n')).toEqual([
      'DEALLOCATE ALL',
      `PREPARE ${byId.name}(uuid) AS SELECT * FROM runs WHERE id = $1`,
      `EXECUTE ${byId.name}(${id})`,
    ]);
  });

  it('a call with the wrong number of arguments is refused before anything is sent', () => {
    expect(() => byId.with()).toThrow(`${byId.name} takes 1 arguments, not 0.`);
  });

  it('the same text and types make the same name; different ones a different name', () => {
    expect(new PreparedStatement(['uuid'], 'SELECT * FROM runs WHERE id = $1').name).toBe(byId.name);
    expect(new PreparedStatement(['text'], 'SELECT * FROM runs WHERE id = $1').name).not.toBe(byId.name);
  });
});
