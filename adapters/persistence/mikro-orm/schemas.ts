import { EntitySchema } from '@mikro-orm/core';
import type { Branch, Business, Membership, User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import type { RefreshToken } from '../../../application/auth/ports.js';

// Mappings of the domain types themselves (no decorators, no mapper classes). Foreign keys stay
// plain uuid columns: the domain refers to other aggregates by id. Tables come from migrations.
const uuid = { type: 'uuid' } as const;
const text = { type: 'text' } as const;
const optionalText = { type: 'text', nullable: true } as const;
const time = { type: 'Date', columnType: 'timestamptz' } as const;
const optionalTime = { type: 'Date', columnType: 'timestamptz', nullable: true } as const;

export const UserSchema = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  properties: {
    id: { ...uuid, primary: true },
    phone: optionalText,
    email: optionalText,
    firstName: text,
    lastName: text,
    verifiedAt: optionalTime,
    createdAt: time,
    updatedAt: time,
  },
});

export const BusinessSchema = new EntitySchema<Business>({
  name: 'Business',
  tableName: 'businesses',
  properties: {
    id: { ...uuid, primary: true },
    name: text,
    phone: optionalText,
    email: optionalText,
    address: optionalText,
    category: optionalText,
    logoUrl: optionalText,
    plan: text,
    currency: text,
    timezone: text,
    createdAt: time,
    updatedAt: time,
  },
});

export const BranchSchema = new EntitySchema<Branch>({
  name: 'Branch',
  tableName: 'branches',
  properties: {
    id: { ...uuid, primary: true },
    businessId: uuid,
    name: text,
    address: optionalText,
    phone: optionalText,
    isDefault: { type: 'boolean' },
    archivedAt: optionalTime,
    createdAt: time,
    updatedAt: time,
  },
});

export const MembershipSchema = new EntitySchema<Membership>({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    id: { ...uuid, primary: true },
    businessId: uuid,
    userId: uuid,
    role: text,
    branchId: { ...uuid, nullable: true },
    status: text,
    createdAt: time,
    updatedAt: time,
  },
});

export const OtpCodeSchema = new EntitySchema<OtpCode>({
  name: 'OtpCode',
  tableName: 'otp_codes',
  properties: {
    id: { ...uuid, primary: true },
    identifierKey: text,
    purpose: text,
    codeHash: text,
    wrongTries: { type: 'integer' },
    consumedAt: optionalTime,
    createdAt: time,
    expiresAt: time,
  },
});

export const RefreshTokenSchema = new EntitySchema<RefreshToken>({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    id: { ...uuid, primary: true },
    familyId: uuid,
    userId: uuid,
    tokenHash: text,
    expiresAt: time,
    createdAt: time,
    rotatedAt: optionalTime,
    revokedAt: optionalTime,
  },
});

export const allSchemas = [UserSchema, BusinessSchema, BranchSchema, MembershipSchema, OtpCodeSchema, RefreshTokenSchema];
