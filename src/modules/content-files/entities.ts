import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';
import type { LaunchData } from './manifest';

export type ContentFileState = 'PROCESSING' | 'READY' | 'FAILED';

/** AssetTypeEnum of the published v1 document. */
export const ASSET_TYPES = ['AUDIO_BOTR', 'HTML', 'PDF', 'VIDEO_BOTR', 'FILE', 'TEMPLATE'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Web package kinds (`type`); SCORM 1.2 and 2004 are told apart by standard_version. */
export type WebPackageType = 'SCORM' | 'XAPI' | 'CMI5';

/**
 * What an asset and a web package share: whether finishing it completes the lesson, where the
 * worker's import stands (and why it failed), and the stored size in bytes (bigint, as a string).
 */
export abstract class ContentFile extends UpdatedOrgEntity {
  @Column('boolean') syncCompletion: boolean;
  @Column('text') state: ContentFileState;
  @Column('text', { nullable: true }) failureReason: string | null;
  @Column('bigint', { nullable: true }) sizeBytes: string | null;
}

/** A /v1 asset: a re-hosted file (from content_url) or an embed link. */
@Entity('assets')
export class Asset extends ContentFile {
  @Column('text') name: string;
  @Column('text', { nullable: true }) type: AssetType | null;
  @Column('text', { nullable: true }) sourceUrl: string | null;
  @Column('text', { nullable: true }) embedLinkUrl: string | null;
  @Column('text') aspectRatio: '16:9' | '4:3';
  @Column('text', { nullable: true }) storageKey: string | null;
  @Column('text', { nullable: true }) contentType: string | null;
}

/** A /v1 web package: a SCORM / xAPI / cmi5 zip, fetched, checked and unpacked by the worker. */
@Entity('web_packages')
export class WebPackage extends ContentFile {
  @Column('text') title: string;
  @Column('text', { nullable: true }) type: WebPackageType | null;
  @Column('text', { nullable: true }) standardVersion: string | null;
  @Column('boolean') redirectOnCompletion: boolean;
  @Column('text') sourceUrl: string;
  /** where the package lives in storage: `<prefix>/package.zip` and `<prefix>/files/...` */
  @Column('text') storagePrefix: string;
  @Column('text', { nullable: true }) launchPath: string | null;
  /** the query the launch file is opened with (href query, then the SCORM item's `parameters`) */
  @Column('text', { nullable: true }) launchParameters: string | null;
  /** a cmi5 AU's or xAPI activity's launch members, the SCORM item (manifest.ts LaunchData) */
  @Column('jsonb', { nullable: true }) launchData: LaunchData | null;
  @Column('bigint', { nullable: true }) expandedBytes: string | null;
  @Column('integer', { nullable: true }) fileCount: number | null;
}

export const packageZipKey = (prefix: string) => `${prefix}/package.zip`;
export const packageFilesPrefix = (prefix: string) => `${prefix}/files`;
