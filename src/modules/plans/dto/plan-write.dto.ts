import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ObjectList } from '../../../core/http/array-rules';
import { Present, requireMembers, V1Bool, V1Str } from '../../../core/http/v1-rules';

/** `{id}` of a published course or published path. */
export class ProgramRefDto {
  @V1Str({ required: true, min: 1, max: 200 }) id: string;
}

/** The published Plan slug pattern. */
export const PLAN_SLUG = { pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, patternMessage: 'Enter a valid slug: lowercase letters and digits, words joined by single hyphens.' };
/** Items one request may give a plan or a series. */
export const MAX_PROGRAM_ITEMS = 500;

/**
 * An optional member listing published courses or paths of the domain (`[{id}]`, up to
 * MAX_PROGRAM_ITEMS, in order; a list sent replaces the program's list), documented with
 * `description`. The rules apply in the order stacked decorators would (ObjectList first), so the
 * validation messages come in the same order.
 */
export const ProgramList = (description: string): PropertyDecorator =>
  applyDecorators(
    ObjectList(() => ProgramRefDto, MAX_PROGRAM_ITEMS),
    Present(),
    ApiProperty({ type: [ProgramRefDto], required: false, description }),
  );

/**
 * PATCH /v1/domains/{domain_name}/plan/{plan_id} (extension, CONVENTIONS §15): the published Plan's
 * writable members, plus the plan's `published_courses` and `published_paths` (each `[{id}]` of the
 * plan's domain; a list sent replaces the plan's list).
 */
export class PlanPatchDto {
  @V1Str({ min: 1, max: 500 }) name?: string;
  @V1Str({ min: 1, max: 100, ...PLAN_SLUG }) slug?: string;
  @V1Bool() hidden?: boolean;
  @V1Str({ max: 300, nullable: true }) short_description?: string | null;
  @ProgramList('published courses of the domain the plan grants') published_courses?: ProgramRefDto[];
  @ProgramList('published paths of the domain the plan grants') published_paths?: ProgramRefDto[];
}

/** POST and PUT: `name` and `hidden` required, as in the published Plan. */
export class PlanCreateDto extends PlanPatchDto {}
requireMembers(PlanCreateDto, ['name', 'hidden']);
