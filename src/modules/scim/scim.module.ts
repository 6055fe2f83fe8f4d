import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { StudentsModule } from '../students/students.module';
import { ScimController } from './scim.controller';
import { ScimService } from './scim.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScimUserLink } from './scim-user-link.entity';

/** SCIM 2.0 provisioning (table scim_user_links; students and groups written through their owners' provisioning services). */
@Module({
  imports: [TypeOrmModule.forFeature([ScimUserLink]), StudentsModule, GroupsModule],
  providers: [ScimService],
  controllers: [ScimController],
})
export class ScimModule {}
