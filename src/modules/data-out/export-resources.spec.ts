import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { isoOfTimestamptz } from '../../core/database/pool-reads';
import { csvRecord, EXPORT_RESOURCES, exportHeader, exportValues, isoTime } from './export-resources';

describe('isoTime', () => {
  it('writes what isoOfTimestamptz writes', () => {
    for (const t of [
      '2026-11-24 20:05:45.123+00',
      '2026-11-24 20:05:45+00',
      '2026-11-24 20:05:45.1+00',
      '2026-11-24 20:05:45.12+00',
      '2026-11-24 20:05:45.123456+00',
      '0099-12-31 23:59:59.999+00',
      '2026-03-29 01:30:00.5+02',
      '2026-03-29 01:30:00+05:30',
    ]) {
      expect(isoTime(t)).toBe(isoOfTimestamptz(t));
    }
  });
});

/** csvRecord writes, byte for byte, what csv-stringify (the csv project's RFC 4180 writer) writes for the same values. */
describe('csvRecord', () => {
  const tricky = ['', 'plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rlf\r\n', '"', ',', ' lead and trail ', 'Zoë 中文 😀', '=1+1', "it's", '\t tab'];
  it('matches csv-stringify for every resource, with tricky text and nulls', () => {
    for (const resource of Object.keys(EXPORT_RESOURCES) as (keyof typeof EXPORT_RESOURCES)[]) {
      const cols = EXPORT_RESOURCES[resource].columns;
      const rows: unknown[][] = [];
      for (let n = 0; n < 60; n++) {
        rows.push(
          cols.map((c, i) => {
            if ((n + i) % 7 === 0) return null;
            if (typeof c.kind === 'object') return randomUUID();
            if (c.kind === 'time') return '2026-11-24 20:05:45.123+00';
            if (c.kind === 'number') return n * 3;
            if (c.kind === 'money') return n * 101;
            if (c.kind === 'bool') return n % 2 === 0;
            if (c.kind === 'json') return { verb: tricky[(n + i) % tricky.length], n };
            return tricky[(n + i) % tricky.length];
          }),
        );
      }
      const ours = rows.map(csvRecord(resource)).join('');
      const values = exportValues(resource);
      // with CRLF records csv-stringify quotes a field holding CRLF but not a lone LF or CR: it is told
      // to quote those too (RFC 4180 quotes any line break, and spreadsheets split records on a lone LF)
      const reference = stringify(rows.map(values), { record_delimiter: 'windows', quoted_match: /[\r\n]/, cast: { boolean: (v: boolean) => (v ? 'true' : 'false') } });
      expect(ours).toBe(reference);
      // and it reads back as the values
      const header = exportHeader(resource);
      const back: string[][] = parse(ours);
      expect(back).toEqual(rows.map(values).map((v) => v.map((x) => (x === null ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x)))));
      expect(back[0]).toHaveLength(header.length);
    }
  });
});
