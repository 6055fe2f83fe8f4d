/**
 * The answers of the verifiable-certificate operations (CONVENTIONS §22), declared once for the
 * OpenAPI document (@ApiOkResponse on their handlers): what presentTemplate, the verification,
 * the DID document, the credentials and key rotation answer.
 */

const ISO = { type: 'string', format: 'date-time' } as const;
const nullable = <T extends object>(s: T) => ({ ...s, nullable: true });

export const CERTIFICATE_TEMPLATE_SCHEMA = {
  type: 'object',
  required: ['title', 'primary_color', 'accent_color', 'signature_name', 'signature_title', 'logo', 'updated_at'],
  properties: {
    title: { type: 'string', description: "The certificate's heading" },
    primary_color: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
    accent_color: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
    signature_name: nullable({ type: 'string' }),
    signature_title: nullable({ type: 'string' }),
    logo: nullable({ type: 'string', description: 'A data: URL (PNG or JPEG)' }),
    updated_at: nullable({ ...ISO, description: 'null until the template is first written (the defaults apply)' }),
  },
};

export const VERIFICATION_SCHEMA = {
  type: 'object',
  required: ['code', 'status', 'learner_name', 'course', 'issued_at', 'expires_at', 'revoked_at', 'issuer'],
  properties: {
    code: { type: 'string' },
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
    learner_name: { type: 'string' },
    course: { type: 'string' },
    issued_at: ISO,
    expires_at: nullable(ISO),
    revoked_at: nullable(ISO),
    issuer: { type: 'string', description: "The issuing organization's name" },
  },
};

export const ROTATED_KEY_SCHEMA = {
  type: 'object',
  required: ['key_id', 'retired_key_id'],
  properties: {
    key_id: { type: 'string', description: 'The DID URL of the new signing key' },
    retired_key_id: nullable({ type: 'string', description: 'The DID URL of the retired key (still listed in the DID document)' }),
  },
};

export const DID_DOCUMENT_SCHEMA = {
  type: 'object',
  required: ['@context', 'id', 'verificationMethod', 'assertionMethod'],
  properties: {
    '@context': { type: 'array', items: { type: 'string' } },
    id: { type: 'string', description: 'did:web:<host>:orgs:<organization id>' },
    verificationMethod: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'controller', 'publicKeyMultibase'],
        properties: { id: { type: 'string' }, type: { type: 'string', enum: ['Multikey'] }, controller: { type: 'string' }, publicKeyMultibase: { type: 'string' } },
      },
    },
    assertionMethod: { type: 'array', items: { type: 'string' } },
  },
};

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
