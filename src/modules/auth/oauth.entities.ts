import { Column, Entity } from 'typeorm';
import { CreatedEntity, OrgEntity, UpdatedEntity } from '../../core/database/org-entity';

@Entity('oauth_clients')
export class OAuthClient extends UpdatedEntity {
  /** null for a dynamically registered client that no administrator has authorized yet */
  @Column('uuid', { nullable: true }) organizationId: string | null;
  @Column('text') clientId: string;
  @Column('bytea', { nullable: true, select: true }) secretHash: Buffer | null;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { array: true }) scopes: string[];
  @Column('boolean') isActive: boolean;
  @Column('text', { array: true }) ipAllowlist: string[];
  @Column('text', { array: true }) redirectUris: string[];
  @Column('text') tokenEndpointAuthMethod: string;
  @Column('text', { array: true }) grantTypes: string[];
  @Column('text', { array: true }) responseTypes: string[];
  @Column('boolean') isDynamic: boolean;
  @Column('boolean') isBootstrap: boolean;
  @Column('timestamptz', { nullable: true }) deactivatedAt: Date | null;
}

/** All refresh tokens descending from one grant; revoked as a whole on reuse of a rotated token. */
@Entity('token_families')
export class TokenFamily extends OrgEntity {
  @Column('uuid') clientId: string;
  @Column('text') subject: string;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}

@Entity('refresh_tokens')
export class RefreshToken extends CreatedEntity {
  @Column('uuid') familyId: string;
  @Column('bytea') tokenHash: Buffer;
  @Column('text') scope: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) rotatedAt: Date | null;
  /** the token that replaced this one, encrypted with APP_SECRET, kept only for REFRESH_TOKEN_GRACE_SECONDS after rotation */
  @Column('text', { nullable: true, select: false }) successorEnc: string | null;
}

@Entity('auth_codes')
export class AuthCode extends OrgEntity {
  @Column('bytea') codeHash: Buffer;
  @Column('uuid') clientId: string;
  @Column('uuid') adminId: string;
  @Column('text') redirectUri: string;
  @Column('text') codeChallenge: string;
  @Column('text') scope: string;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) usedAt: Date | null;
  @Column('uuid', { nullable: true }) familyId: string | null;
}
