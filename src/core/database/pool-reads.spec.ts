import { isoOfTimestamptz, parseTimestamptz } from './pool-reads';

describe('isoOfTimestamptz', () => {
  it('is parseTimestamptz(text).toISOString() for UTC texts of every fraction length, and for other offsets', () => {
    const texts = ['2025-03-04 05:06:07+00', '1999-12-31 23:59:59.9+00', '2025-03-04 05:06:07.12+00', '2025-03-04 05:06:07.123+00', '2025-03-04 05:06:07.1239+00'];
    texts.push('2025-03-04 05:06:07.12399+00', '2025-03-04 05:06:07.999999+00', '2025-03-04 05:06:07.000001+00', '2025-03-04 05:06:07.5+02', '2025-03-04 05:06:07.123456-05:30');
    for (let f = 0; f < 1000; f += 7) texts.push(`2024-02-29 00:00:00.${String(f).padStart(3, '0')}+00`, `2024-02-29 00:00:00.${String(f * 997).padStart(6, '0')}+00`);
    for (const t of texts) expect({ t, iso: isoOfTimestamptz(t) }).toEqual({ t, iso: parseTimestamptz(t).toISOString() });
  });
});
