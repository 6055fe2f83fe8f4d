import { Type, type Static } from '@sinclair/typebox';
import { DateTime, nullable, StringEnum } from '../../core/openapi/declared-shape';
import type { CertificateState } from './credentials.service';

/**
 * The answers of the verifiable-certificate operations (CONVENTIONS §22), declared once for the
 * OpenAPI document (@ApiOkResponse on their handlers, `openApi(...)`): what presentTemplate, the
 * verification, the DID document, key rotation and the signed credentials answer are TypeBox
 * declarations, their answers' types (core/openapi/declared-shape.ts).
 */

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

/** One eddsa-rdfc-2022 Data Integrity proof (data-integrity.ts signDataIntegrity); a credential carries a one-item proof set. */
export const DataIntegrityProofSchema = Type.Object({
  type: Type.Literal('DataIntegrityProof'),
  cryptosuite: Type.Literal('eddsa-rdfc-2022'),
  created: DateTime(),
  verificationMethod: Type.String(),
  proofPurpose: Type.Literal('assertionMethod'),
  proofValue: Type.String(),
});
export type DataIntegrityProof = Static<typeof DataIntegrityProofSchema>;

const strings = () => Type.Array(Type.String());

/** A certificate as an Open Badges 3.0 OpenBadgeCredential (CredentialsService.credential). */
export const OpenBadgeCredentialSchema = Type.Object(
  {
    '@context': strings(),
    id: Type.String({ format: 'uri' }),
    type: strings(),
    name: Type.String(),
    issuer: Type.Object({ id: Type.String(), type: strings(), name: Type.String() }),
    validFrom: DateTime(),
    validUntil: Type.Optional(DateTime({ description: 'Left out when the certificate does not expire' })),
    credentialSubject: Type.Object({
      type: strings(),
      name: Type.Optional(Type.String({ description: "The learner's name; left out when it is empty" })),
      identifier: Type.Array(Type.Object({ type: Type.String(), identityHash: Type.String(), identityType: Type.String(), hashed: Type.Boolean(), salt: Type.String() })),
      achievement: Type.Object({
        id: Type.String(),
        type: strings(),
        achievementType: Type.Optional(Type.String()),
        name: Type.String(),
        description: Type.String(),
        criteria: Type.Object({ narrative: Type.String() }),
      }),
    }),
    credentialStatus: Type.Object({
      id: Type.String(),
      type: Type.Literal('BitstringStatusListEntry'),
      statusPurpose: Type.Literal('revocation'),
      statusListIndex: Type.String(),
      statusListCredential: Type.String(),
    }),
    proof: Type.Array(DataIntegrityProofSchema),
  },
  { description: 'An Open Badges 3.0 OpenBadgeCredential (W3C VC 2.0); 1EdTech publishes its full JSON schema' },
);
export type OpenBadgeCredential = Static<typeof OpenBadgeCredentialSchema>;

/** A status list of an organization's certificates (CredentialsService.statusListCredential). */
export const StatusListCredentialSchema = Type.Object(
  {
    '@context': strings(),
    id: Type.String(),
    type: strings(),
    issuer: Type.String(),
    validFrom: DateTime(),
    credentialSubject: Type.Object({
      id: Type.String(),
      type: Type.Literal('BitstringStatusList'),
      statusPurpose: Type.Literal('revocation'),
      encodedList: Type.String({ description: 'multibase base64url of the GZIP of the bits' }),
    }),
    proof: Type.Array(DataIntegrityProofSchema),
  },
  { description: 'A BitstringStatusListCredential (W3C Bitstring Status List v1.0)' },
);
export type StatusListCredential = Static<typeof StatusListCredentialSchema>;

export const PDF_BYTES = { type: 'string', format: 'binary' } as const;
