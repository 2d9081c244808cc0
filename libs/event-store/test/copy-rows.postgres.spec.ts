import { copyBytes, copyValue, sqlState, type SqlDatabase } from '../src/index.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * The replay's bulk load (COPY … FROM STDIN): every value must reach the table exactly as a
 * parameterised INSERT would put it there, whatever characters it holds, and a refused row must
 * take the whole load with it.
 */
describe('COPY text and copyRows on PostgreSQL', () => {
  let db: SqlDatabase & { schema: string };

  beforeAll(async () => {
    db = await openTestPostgres('copyrows');
    await db.exec(`create table copy_probe (id integer primary key, t text, j jsonb, n bigint, at timestamptz)`);
  });
  afterAll(async () => {
    await db.close();
  });

  // The format's own characters, a literal \N and \. (the end-of-data marker), JSON text whose
  // escapes are backslashes, an empty string, non-ASCII text.
  const awkward = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    '\\N',
    '\\.',
    '',
    'Şükrü Öztürk — ağaç',
    'ends with a backslash\\',
  ];

  it('encodes the format: tabs between values, \\N for null, the special characters escaped', () => {
    expect(
      copyBytes(
        [
          { a: 'x', b: null, c: 7 },
          { a: 'y\tz', b: 'q', c: 8 },
        ],
        ['a', 'b', 'c'],
      ).toString('utf8'),
    ).toBe('x\t\\N\t7\ny\\tz\tq\t8\n');
    // Past its first buffer (a line of 3 MB of two- and three-byte characters among short ones).
    const long = 'ş€'.repeat(1_000_000);
    const rows = [
      { a: 'Ağaç', b: 1 },
      { a: long, b: 2 },
      ...Array.from({ length: 20_000 }, (_, i) => ({ a: `Öz ${i}`, b: i })),
    ];
    const expected = rows.map((r) => `${r.a}\t${r.b}\n`).join('');
    expect(copyBytes(rows, ['a', 'b']).equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(copyValue('a\\b\nc\rd\te')).toBe('a\\\\b\\nc\\rd\\te');
    expect(copyValue(undefined)).toBe('\\N');
    expect(copyValue(12n)).toBe('12');
    expect(() => copyValue(0.5)).toThrow(/safe integer/);
    expect(() => copyValue('nul\u0000')).toThrow(/NUL/);
    expect(() => copyValue(true as unknown as string)).toThrow(/boolean/);
  });

  it('stores every value as a parameterised INSERT does', async () => {
    const rows = awkward.map((t, i) => ({
      id: i + 1,
      t,
      j: JSON.stringify({ fullName: `"${t}"`, i }),
      n: '9007199254740993',
      at: '2026-11-27T10:00:00.123Z',
    }));
    await db.transaction((tx) => tx.copyRows!('copy_probe', ['id', 't', 'j', 'n', 'at'], rows));
    // The same values through parameters, into a second id range, must read back identically.
    for (const [i, row] of rows.entries())
      await db.query(
        `insert into copy_probe (id, t, j, n, at) values ($1, $2, $3::jsonb, $4::bigint, $5::timestamptz)`,
        [100 + i, row.t, row.j, row.n, row.at],
      );
    const read = async (from: number) =>
      (
        await db.query<{ t: string; j: string; n: string; at: string }>(
          `select t, j::text as j, n::text as n, at::text as at from copy_probe where id >= $1 and id < $1 + 99 order by id`,
          [from],
        )
      ).rows;
    const copied = await read(1);
    expect(copied.map((r) => r.t)).toEqual(awkward);
    expect(copied).toEqual(await read(100));
    expect(JSON.parse(copied[3]!.j)).toEqual({ fullName: '"back\\slash"', i: 3 });
  });

  it('writes nothing of a load that a key refuses, and says why', async () => {
    const before = (await db.query<{ n: number }>(`select count(*)::int as n from copy_probe`)).rows[0]!.n;
    const load = db.transaction((tx) =>
      tx.copyRows!(
        'copy_probe',
        ['id', 't'],
        [
          { id: 500, t: 'new' },
          { id: 1, t: 'taken' },
        ],
      ),
    );
    await expect(load).rejects.toThrow(/duplicate key/);
    expect(sqlState(await load.catch((error: unknown) => error))).toBe('23505');
    expect((await db.query<{ n: number }>(`select count(*)::int as n from copy_probe`)).rows[0]!.n).toBe(before);
    // The connection went back to the pool usable.
    await db.transaction((tx) => tx.copyRows!('copy_probe', ['id', 't'], [{ id: 501, t: 'after' }]));
    expect((await db.query<{ t: string }>(`select t from copy_probe where id = 501`)).rows).toEqual([{ t: 'after' }]);
  });

  it('refuses a table or column name that is not a plain identifier', async () => {
    await expect(db.transaction((tx) => tx.copyRows!('copy_probe; drop table x', ['id'], [{ id: 1 }]))).rejects.toThrow(
      /invalid identifier/,
    );
    await expect(db.transaction((tx) => tx.copyRows!('copy_probe', ['id", "t'], [{ id: 1 }]))).rejects.toThrow(
      /invalid identifier/,
    );
  });
});
