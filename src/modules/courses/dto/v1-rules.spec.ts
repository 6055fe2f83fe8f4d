import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toProblems } from '../../../core/http/validation.pipe';
import { CourseRequest, PatchedCourseRequest } from './course.v1.dto';
import { LessonUpdateRequest } from '../../lessons/dto/lesson.v1.dto';

const problems = (cls: new () => object, body: object) => {
  const errs = validateSync(plainToInstance(cls, body) as object, { whitelist: true, forbidUnknownValues: false });
  const out: Record<string, string[]> = {};
  for (const p of toProblems(errs, 'body')) (out[p.field] ??= []).push(p.message);
  return out;
};

describe('v1 field rules', () => {
  it('a required subclass keeps the PATCH rules of its parent and adds "required"', () => {
    expect(problems(CourseRequest, {})).toEqual({
      title: ['This field is required.'],
      short_description: ['This field is required.'],
      enforce_sequential_navigation: ['This field is required.'],
    });
    expect(problems(CourseRequest, { title: 3, short_description: null, enforce_sequential_navigation: true })).toEqual({
      title: ['Not a valid string.'],
      short_description: ['This field may not be null.'],
    });
    expect(problems(PatchedCourseRequest, {})).toEqual({});
    expect(problems(PatchedCourseRequest, { title: '  ' })).toEqual({ title: ['This field may not be blank.'] });
  });

  it('nullable members accept null; integers are range-checked', () => {
    expect(problems(LessonUpdateRequest, { time_seconds: null, content_asset_id: null })).toEqual({});
    expect(problems(LessonUpdateRequest, { time_seconds: -1, order: 2 ** 31 })).toEqual({
      time_seconds: ['Ensure this value is greater than or equal to 0.'],
      order: ['Ensure this value is less than or equal to 2147483647.'],
    });
  });
});
