import { types } from 'pg';
import { newUuid } from '../../core/ids/ids';
import { pageDocument, pageDocumentJson, PageRequest } from '../../core/pagination/cursor-page';
import { studentFromRow } from './student.entity';
import { presentStudent, StudentRow, studentRowJoined, studentRowJson, studentRowPosition } from './students.presenter';

/** The list's JSON text written from the rows is the JSON of the document of presented entities, byte for byte. */
describe('studentRowJson / pageDocumentJson', () => {
  const parse = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (s: string) => Date;
  const names = ['plain', '', 'Quote " back \\ slash / tab \t nl \n', 'line \u2028 para \u2029 ctl \u0001 del \u007f', 'Zoë 😀 é 中文', "</script>&<>'", 'lone \ud800 surrogate'];
  const texts = ['2026-11-24 20:05:45.123+00', '2026-11-24 20:05:45.123456+00', '1999-01-01 00:00:00+00', '2026-03-29 01:30:00.5+02', '0099-12-31 23:59:59.999+00'];
  const rows = (n: number): (StudentRow & Record<string, unknown>)[] =>
    Array.from({ length: n }, (_, i) => ({
      id: i === 0 ? '00000000-0000-4000-8000-000000000000' : i === 1 ? 'ffffffff-ffff-4fff-bfff-ffffffffffff' : newUuid(),
      organization_id: newUuid(),
      email: `s${i}@example.test`,
      first_name: names[i % names.length],
      last_name: names[(i + 3) % names.length],
      external_id: i % 4 === 0 ? '' : newUuid(),
      is_inactive: i % 3 === 0,
      is_anonymized: false,
      sso_provider: null,
      password_changed_at: null,
      deactivated_at: null,
      anonymized_at: null,
      created_at: texts[i % texts.length],
      updated_at: texts[0],
    }));
  /** the row as a query without `types` gives it (timestamptz parsed) */
  const parsed = (r: StudentRow & Record<string, unknown>): StudentRow & Record<string, unknown> => ({ ...r, created_at: parse(r.created_at as string), updated_at: parse(r.updated_at as string) });

  it('a row, with created_at as pg text or parsed: the JSON of presentStudent(studentFromRow(row))', () => {
    for (const r of rows(20)) {
      const expected = JSON.stringify(presentStudent(studentFromRow(parsed(r))));
      expect(studentRowJson(r)).toBe(expected);
      expect(studentRowJson(parsed(r))).toBe(expected);
    }
  });

  it("created_at from pg's text: the ISO text of pg's parse, for UTC texts (rewritten) and any other (parsed)", () => {
    const texts: string[] = [];
    for (const day of ['1000-01-01 00:00:00', '1969-12-31 23:59:59', '1970-01-01 00:00:00', '2026-11-24 20:05:45', '9999-12-31 23:59:59']) {
      for (let i = 0; i < 1000000; i += 997) {
        const fraction = String(i).padStart(6, '0').replace(/0+$/, '');
        texts.push(`${day}${fraction ? `.${fraction}` : ''}+00`);
      }
      for (const fraction of ['', '.5', '.05', '.005', '.0005', '.999', '.999999', '.000001', '.1', '.12', '.123', '.1234', '.12345']) texts.push(`${day}${fraction}+00`);
    }
    texts.push('0099-12-31 23:59:59.5+00', '0999-01-01 00:00:00+00', '2026-03-29 01:30:00.5+02', '2026-03-29 01:30:00+05:30', '2026-03-29 01:30:00.123-03', '0044-03-15 12:00:00+00 BC');
    for (let i = 0; i < 2000; i++) {
      const iso = new Date(Math.floor(Math.random() * 2 ** 41) - 2 ** 40).toISOString();
      texts.push(`${iso.slice(0, 10)} ${iso.slice(11, 19)}${`.${iso.slice(20, 23)}${String(i % 1000).padStart(3, '0')}`.replace(/\.?0+$/, '')}+00`);
    }
    expect(texts.filter((text) => studentRowJoined({ created_at: text } as StudentRow) !== parse(text).toISOString())).toEqual([]);
    expect(studentRowJoined({ created_at: parse(texts[0]) } as StudentRow)).toBe(parse(texts[0]).toISOString());
  });

  it('pages (more to follow or not, empty, after a cursor, odd URLs): the JSON of pageDocument', () => {
    const secret = 'x'.repeat(32);
    const urls = ['/v2/students/', '/v2/students/?page[size]=3', '/v2/students?page%5Bsize%5D=3&page[cursor]=abc.def&x=%20y', '/v2/students/?a=ü&b'];
    for (const base of ['http://127.0.0.1:3000', 'https://api.example.test/']) {
      for (const url of urls) {
        for (const [n, size] of [
          [0, 25],
          [3, 3],
          [4, 3],
          [26, 25],
          [101, 100],
          [1, 1],
          [2, 1],
        ]) {
          const page: PageRequest = { size, scope: 'students' };
          const rs = rows(n);
          const expected = JSON.stringify(
            pageDocument(
              rs.map((r) => studentFromRow(parsed(r))),
              page,
              presentStudent,
              base,
              url,
              secret,
            ),
          );
          expect(pageDocumentJson(rs, page, studentRowJson, studentRowPosition, base, url, secret)).toBe(expected);
        }
      }
    }
  });
});
