import { LowercasePublicIds1763700014000 } from '../../migrations/1763700014000-lowercase-public-ids';
import { decodeId, newUuid } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';

/** The public id of the previous format: `prefix_` + base64url(uuid). */
const oldId = (prefix: string, uuid: string) => `${prefix}_${Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url')}`;

describe('migration 1763700014000: public ids stored in outbox event bodies move to ^[0-9a-z]+$', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rewrites every old-format id of a known type anywhere in a body, leaves everything else, and down() restores it', async () => {
    const org = await t.newOrg();
    const [evt, stu, crs, pcs, dom, plne, les] = Array.from({ length: 7 }, () => newUuid());
    const body = {
      id: oldId('evt', evt),
      event_type: 'COURSE_COMPLETION',
      timestamp: '2026-01-01T00:00:00.000Z',
      user: { id: oldId('stu', stu), email: 'a@b.test', first_name: 'stu_AAAAAAAAAAAAAAAAAAAAA', last_name: 'B' },
      course: { id: oldId('crs', crs), published_course_id: oldId('pcs', pcs), title: 'T', url: 'https://d.test/c' },
      domain: { id: oldId('dom', dom), name: 'd.test' },
      items: [{ id: oldId('plne', plne) }, [oldId('les', les)]],
      other: { unknown_prefix: oldId('zzz', newUuid()), count: 3, flag: true, none: null },
    };
    const id = newUuid();
    await t.ds.query(`INSERT INTO outbox_events (id, organization_id, event_type, payload) VALUES ($1, $2, 'COURSE_COMPLETION', $3::jsonb)`, [id, orgUuid(org), JSON.stringify(body)]);

    const qr = t.ds.createQueryRunner();
    try {
      await new LowercasePublicIds1763700014000().up(qr);
      const [{ payload }] = await t.ds.query(`SELECT payload FROM outbox_events WHERE id = $1`, [id]);
      expect(decodeId('event', payload.id)).toBe(evt);
      expect(decodeId('student', payload.user.id)).toBe(stu);
      expect(decodeId('course', payload.course.id)).toBe(crs);
      expect(decodeId('publishedCourse', payload.course.published_course_id)).toBe(pcs);
      expect(decodeId('domain', payload.domain.id)).toBe(dom);
      expect(decodeId('planEnrollment', payload.items[0].id)).toBe(plne);
      expect(decodeId('lesson', payload.items[1][0])).toBe(les);
      for (const v of [payload.id, payload.user.id, payload.course.id, payload.domain.id, payload.items[0].id]) expect(v).toMatch(/^[0-9a-z]+$/);
      // not ids of a known type, or not of the old form: untouched
      expect(payload.user.first_name).toBe(body.user.first_name);
      expect(payload.other).toEqual(body.other);
      expect(payload.course.url).toBe(body.course.url);

      await new LowercasePublicIds1763700014000().down(qr);
      const [{ payload: back }] = await t.ds.query(`SELECT payload FROM outbox_events WHERE id = $1`, [id]);
      expect(back).toEqual(body);
    } finally {
      await qr.release();
    }
  });
});
