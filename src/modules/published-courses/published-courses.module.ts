import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishedCourse } from './published-course.entity';
import { PublishedCoursesService } from './published-courses.service';

@Module({
  imports: [TypeOrmModule.forFeature([PublishedCourse])],
  providers: [PublishedCoursesService],
  exports: [PublishedCoursesService],
})
export class PublishedCoursesModule {}
