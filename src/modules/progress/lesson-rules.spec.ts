import { LessonState, nextLessonState } from './lesson-rules';

const blank: LessonState = { finished_at: null, completed_at: null, success_status: null, score: null, max_score: null, custom_data: null, validation_status: null, validation_data: null };
const t1 = new Date('2026-01-01T00:00:00Z');
const t2 = new Date('2026-02-01T00:00:00Z');
const now = new Date('2026-03-01T00:00:00Z');

describe('the lesson state table (resource-reference-api.md §3, CONVENTIONS §10)', () => {
  it('finished_at completes a lesson that needs no validation, at that instant', () => {
    expect(nextLessonState(blank, { finished_at: t1 }, 'HTML', now)).toMatchObject({ finished_at: t1, completed_at: t1 });
  });

  it('a completed lesson keeps its completion date when finished_at changes', () => {
    expect(nextLessonState({ ...blank, finished_at: t1, completed_at: t1 }, { finished_at: t2 }, 'HTML', now).completed_at).toEqual(t1);
  });

  it('completed_at null un-completes, whatever finished_at says (also when both are sent)', () => {
    expect(nextLessonState({ ...blank, finished_at: t1, completed_at: t1 }, { completed_at: null }, 'HTML', now).completed_at).toBeNull();
    expect(nextLessonState(blank, { finished_at: t1, completed_at: null }, 'HTML', now).completed_at).toBeNull();
  });

  it('a lesson that needs validation (proctored exam) is only finished by finished_at, and completes on validation_status PASSED', () => {
    const fin = nextLessonState(blank, { finished_at: t1 }, 'IE_EXAM', now);
    expect(fin).toMatchObject({ finished_at: t1, completed_at: null });
    expect(nextLessonState(fin, { validation_status: 'FAILED' }, 'IE_EXAM', now)).toMatchObject({ completed_at: null, validation_status: 'FAILED' });
    expect(nextLessonState(fin, { validation_status: 'PASSED', validation_data: { r: 1 } }, 'IE_EXAM', now)).toMatchObject({
      completed_at: t1,
      validation_status: 'PASSED',
      validation_data: { r: 1 },
    });
    expect(nextLessonState(blank, { validation_status: 'PASSED' }, 'IE_EXAM', now).completed_at).toEqual(now);
    expect(nextLessonState(blank, { completed_at: t2 }, 'IE_EXAM', now).completed_at).toEqual(t2);
  });

  it('the validation members are ignored on a lesson that needs none', () => {
    expect(nextLessonState(blank, { validation_status: 'PASSED', validation_data: { a: 1 } }, 'HTML', now)).toMatchObject({ validation_status: null, validation_data: null, completed_at: null });
  });
});
