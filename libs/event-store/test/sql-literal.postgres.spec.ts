import pg from 'pg';
import { inlineParameter, sqlLiteral } from '../src/sql/sql-literal.js';
import { TEST_DATABASE_URL } from '../../../test/support/postgres.js';

/** The append group sends its payload as a literal: the server must read back exactly the text sent. */
describe('sqlLiteral on PostgreSQL', () => {
  const texts = [
    'plain',
    "it's",
    "''",
    'back\\slash',
    "\\'; drop table es_events; --",
    JSON.stringify({ s: 'quote " and \\ and \' and \n newline', u: 'ğüşıöç €', e: '\u0000' }),
    '',
  ];

  it.each(['on', 'off'])('reads back every text with standard_conforming_strings %s', async (setting) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`set standard_conforming_strings = ${setting}`);
      for (const text of texts) {
        const { rows } = await client.query(`select ${sqlLiteral(text)}::text as v`);
        expect(rows[0].v).toBe(text);
        const [, inlined] = (await client.query(
          `select 1; ${inlineParameter('select $1::text as v', text)}`,
        )) as unknown as pg.QueryResult[];
        expect(inlined!.rows[0].v).toBe(text);
      }
    } finally {
      await client.end();
    }
  });

  it('refuses NUL and a statement with another placeholder', () => {
    expect(() => sqlLiteral('a\0b')).toThrow(/NUL/);
    expect(() => inlineParameter('select $1, $2', 'x')).toThrow(/one \$1/);
    expect(() => inlineParameter('select 1', 'x')).toThrow(/one \$1/);
  });
});
