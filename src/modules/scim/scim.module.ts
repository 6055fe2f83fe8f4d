import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { StudentsModule } from '../students/students.module';
import { ScimController } from './scim.controller';
import { ScimService } from './scim.service';

/** SCIM 2.0 provisioning (table scim_user_links; students and groups written through their owners' provisioning services). */
@Module({
  imports: [StudentsModule, GroupsModule],
  providers: [ScimService],
  controllers: [ScimController],
})
export class ScimModule {}
