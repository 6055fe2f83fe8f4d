import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { v1ErrorBody } from './api-error';
import { ObjectList } from './array-rules';
import { toProblems } from './validation.pipe';
import { Present, Required, Str, StrList, V1Obj, V1Str, fieldError } from './v1-rules';

class Ref {
  @V1Str({ required: true, min: 1, max: 64 }) id: string;
}
class User {
  @Required() @Str({ max: 50 }) email: string;
  @Str({ max: 50 }) first_name?: string;
}
class Body {
  @V1Obj() @ValidateNested() @Type(() => Ref) vilt_session?: Ref;
  @Present() @ObjectList(() => User, 10) users?: User[];
  @Present() @StrList(10) labels?: string[];
  @Str({ max: 5 }) title?: string;
}

/** The /v1 400 body for `plain` as Body, as the filter renders it. */
const body = (plain: object) => v1ErrorBody(toProblems(validateSync(plainToInstance(Body, plain) as object, { whitelist: true }), 'body'));

describe('/v1 validation errors nest as Django REST framework nests them (CONVENTIONS §16, issue 25 item 7)', () => {
  it('a nested object member: {"vilt_session": {"id": [...]}}', () => {
    expect(body({ vilt_session: {} })).toEqual({ vilt_session: { id: ['This field is required.'] } });
    expect(body({ vilt_session: { id: '' }, title: 'toolong' })).toEqual({ vilt_session: { id: ['This field may not be blank.'] }, title: ['Ensure this field has no more than 5 characters.'] });
  });

  it('a list of objects: one entry per element, {} for the valid ones', () => {
    expect(body({ users: [{ email: 'a' }, {}, { email: 'b' }] })).toEqual({ users: [{}, { email: ['This field is required.'] }, {}] });
    expect(body({ users: [{ email: 'x'.repeat(51) }, { email: 'y', first_name: 5 }] })).toEqual({
      users: [{ email: ['Ensure this field has no more than 50 characters.'] }, { first_name: ['Not a valid string.'] }],
    });
  });

  it('an element that is not an object: its entry holds non_field_errors; null stands alone', () => {
    expect(body({ users: [{ email: 'a' }, []] })).toEqual({ users: [{}, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }] });
    expect(body({ users: [null] })).toEqual({ users: [['This field may not be null.']] });
    expect(body({ users: null })).toEqual({ users: ['This field may not be null.'] });
  });

  it('a member-level problem stays a list of messages', () => {
    expect(body({ users: 'x', labels: null })).toEqual({ users: ['Expected a list of items but got type "str".'], labels: ['This field may not be null.'] });
  });

  it('hand-written problems: a dotted name nests, a path gives the list its length', () => {
    expect(v1ErrorBody(fieldError('published_course.id', 'Invalid pk "x" - object does not exist.').problems)).toEqual({ published_course: { id: ['Invalid pk "x" - object does not exist.'] } });
    expect(v1ErrorBody(fieldError(['users', { index: 1, of: 3 }, 'email'], 'Duplicate of users.0.email.').problems)).toEqual({ users: [{}, { email: ['Duplicate of users.0.email.'] }, {}] });
    expect(v1ErrorBody(fieldError('users.2.email', 'm').problems)).toEqual({ users: [{}, {}, { email: ['m'] }] });
    expect(v1ErrorBody(fieldError('detail', 'm').problems)).toEqual({ detail: ['m'] });
  });

  it('problems that share a place merge; a place taken by another shape keeps the first', () => {
    const problems = [...fieldError('user.email', 'a').problems, ...fieldError('user.email', 'b').problems, ...fieldError('user.email', 'a').problems, ...fieldError('user', 'c').problems];
    expect(v1ErrorBody(problems)).toEqual({ user: { email: ['a', 'b'] } });
  });
});
