import { Type, type Static } from '@sinclair/typebox';
import { DateTime, nullable, StringEnum } from '../../core/openapi/declared-shape';
import type { CertificateState } from './credentials.service';

/**
 * The answers of the verifiable-certificate operations (CONVENTIONS §22), declared once for the
 * OpenAPI document (@ApiOkResponse on their handlers, `openApi(...)`): what presentTemplate, the
 * verification, the DID document and key rotation answer are TypeBox declarations, their answers'
 * types (core/openapi/declared-shape.ts); the signed credentials keep their JSON Schema literals
 * (1EdTech and the W3C publish them; the signing code builds them as JSON-LD).
 */

const ISO = { type: 'string', format: 'date-time' } as const;

const HEX_COLOR = (description: string) => Type.String({ pattern: '^#[0-9a-f]{6}$', description });

/** The organization's certificate template as presentTemplate answers it (extension, declared once: core/openapi/declared-shape.ts). */
export const CertificateTemplateSchema = Type.Object({
  title: Type.String({ description: "The certificate's heading" }),
  primary_color: HEX_COLOR('The main colour, #rrggbb (lower case)'),
  accent_color: HEX_COLOR('The accent colour, #rrggbb (lower case)'),
  signature_name: nullable(Type.String()),
  signature_title: nullable(Type.String()),
  logo: nullable(Type.String({ description: 'A data: URL (PNG or JPEG)' })),
  updated_at: nullable(DateTime({ description: 'null until the template is first written (the defaults apply)' })),
});
export type CertificateTemplateV1 = Static<typeof CertificateTemplateSchema>;

const CERTIFICATE_STATES = ['active', 'expired', 'revoked'] as const satisfies readonly CertificateState[];

/** The public verification of a certificate by its code (CertificateDocumentsService.verification). */
export const VerificationSchema = Type.Object({
  code: Type.String(),
  status: StringEnum(CERTIFICATE_STATES),
  learner_name: Type.String(),
  course: Type.String(),
  issued_at: DateTime(),
  expires_at: nullable(DateTime()),
  revoked_at: nullable(DateTime()),
  issuer: Type.String({ description: "The issuing organization's name" }),
});
export type Verification = Static<typeof VerificationSchema>;

/** What a rotation of the issuer key answers (CredentialsService.rotateKey). */
export const RotatedKeySchema = Type.Object({
  key_id: Type.String({ description: 'The DID URL of the new signing key' }),
  retired_key_id: nullable(Type.String({ description: 'The DID URL of the retired key (still listed in the DID document)' })),
});
export type RotatedKey = Static<typeof RotatedKeySchema>;

/** The organization's DID document (did:web, CredentialsService.didDocument): its credential-signing keys, retired ones included. */
export const DidDocumentSchema = Type.Object({
  '@context': Type.Array(Type.String()),
  id: Type.String({ description: 'did:web:<host>:orgs:<organization id>' }),
  verificationMethod: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Literal('Multikey'),
      controller: Type.String(),
      publicKeyMultibase: Type.String(),
    }),
  ),
  assertionMethod: Type.Array(Type.String()),
});
export type DidDocument = Static<typeof DidDocumentSchema>;

const PROOF = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type', 'cryptosuite', 'created', 'verificationMethod', 'proofPurpose', 'proofValue'],
    properties: {
      type: { type: 'string', enum: ['DataIntegrityProof'] },
      cryptosuite: { type: 'string', enum: ['eddsa-rdfc-2022'] },
      created: ISO,
      verificationMethod: { type: 'string' },
      proofPurpose: { type: 'string', enum: ['assertionMethod'] },
      proofValue: { type: 'string' },
    },
  },
};

export const OPEN_BADGE_CREDENTIAL_SCHEMA = {
  type: 'object',
  description: 'An Open Badges 3.0 OpenBadgeCredential (W3C VC 2.0); 1EdTech publishes its full JSON schema',
  required: ['@context', 'id', 'type', 'name', 'issuer', 'validFrom', 'credentialSubject', 'credentialStatus', 'proof'],
  properties: {
    '@context': { type: 'array', items: { type: 'string' } },
    id: { type: 'string', format: 'uri' },
    type: { type: 'array', items: { type: 'string' } },
    name: { type: 'string' },
    issuer: { type: 'object', required: ['id', 'type', 'name'], properties: { id: { type: 'string' }, type: { type: 'array', items: { type: 'string' } }, name: { type: 'string' } } },
    validFrom: ISO,
    validUntil: ISO,
    credentialSubject: {
      type: 'object',
      required: ['type', 'identifier', 'achievement'],
      properties: {
        type: { type: 'array', items: { type: 'string' } },
        name: { type: 'string' },
        identifier: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type', 'identityHash', 'identityType', 'hashed', 'salt'],
            properties: { type: { type: 'string' }, identityHash: { type: 'string' }, identityType: { type: 'string' }, hashed: { type: 'boolean' }, salt: { type: 'string' } },
          },
        },
        achievement: {
          type: 'object',
          required: ['id', 'type', 'name', 'description', 'criteria'],
          properties: {
            id: { type: 'string' },
            type: { type: 'array', items: { type: 'string' } },
            achievementType: { type: 'string' },
            name: { type: 'string' },
            description: { type: 'string' },
            criteria: { type: 'object', required: ['narrative'], properties: { narrative: { type: 'string' } } },
          },
        },
      },
    },
    credentialStatus: {
      type: 'object',
      required: ['id', 'type', 'statusPurpose', 'statusListIndex', 'statusListCredential'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string', enum: ['BitstringStatusListEntry'] },
        statusPurpose: { type: 'string', enum: ['revocation'] },
        statusListIndex: { type: 'string' },
        statusListCredential: { type: 'string' },
      },
    },
    proof: PROOF,
  },
};

export const STATUS_LIST_CREDENTIAL_SCHEMA = {
  type: 'object',
  description: 'A BitstringStatusListCredential (W3C Bitstring Status List v1.0)',
  required: ['@context', 'id', 'type', 'issuer', 'validFrom', 'credentialSubject', 'proof'],
  properties: {
    '@context': { type: 'array', items: { type: 'string' } },
    id: { type: 'string' },
    type: { type: 'array', items: { type: 'string' } },
    issuer: { type: 'string' },
    validFrom: ISO,
    credentialSubject: {
      type: 'object',
      required: ['id', 'type', 'statusPurpose', 'encodedList'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string', enum: ['BitstringStatusList'] },
        statusPurpose: { type: 'string', enum: ['revocation'] },
        encodedList: { type: 'string', description: 'multibase base64url of the GZIP of the bits' },
      },
    },
    proof: PROOF,
  },
};

export const PDF_BYTES = { type: 'string', format: 'binary' } as const;
