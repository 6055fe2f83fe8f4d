import { Global, Module } from '@nestjs/common';
import { GroupVisibilityWrites } from '../published-courses/group-visibility-writes';
import { deleteOverrides, setSingleOverride } from './visibility-override-writes';

/** The visibility-override writes published-courses asks for (`GroupVisibilityWrites`, declared in modules/published-courses): global, imported once by the root. */
@Global()
@Module({
  providers: [{ provide: GroupVisibilityWrites, useValue: { setSingleOverride, deleteOverrides } satisfies GroupVisibilityWrites }],
  exports: [GroupVisibilityWrites],
})
export class GroupVisibilityWritesModule {}
