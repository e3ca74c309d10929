import { defineEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant-filter.ts';

const stamps = (p: typeof defineEntity.properties) => ({
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
});

export const Queue = defineEntity({
  name: 'Queue',
  tableName: 'queues',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    name: p.string(),
    color: p.string().default('#4C6EF5'),
    greetingMessage: p.text().nullable(),
    slaFirstResponseMinutes: p.integer().nullable(),
    slaResolutionMinutes: p.integer().nullable(),
    ...stamps(p),
  }),
});

export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    name: p.string(),
    color: p.string().default('#868E96'),
    active: p.boolean().default(true),
    ...stamps(p),
  }),
});

export const QuickMessage = defineEntity({
  name: 'QuickMessage',
  tableName: 'quick_messages',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    key: p.string(),
    message: p.text(),
    mediaUrl: p.string().nullable(),
    mediaName: p.string().nullable(),
    asAudio: p.boolean().default(false),
    active: p.boolean().default(true),
    ...stamps(p),
  }),
});

export interface ExtraInfo {
  name: string;
  value: string;
}

export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    name: p.string(),
    number: p.string().nullable(),
    email: p.string().nullable(),
    identity: p.string().nullable(),
    birthday: p.date().nullable(),
    firstName: p.string().nullable(),
    lastName: p.string().nullable(),
    businessName: p.string().nullable(),
    messengerId: p.string().nullable(),
    instagramId: p.string().nullable(),
    hubId: p.string().nullable(),
    telegramId: p.string().nullable(),
    profilePicUrl: p.string().nullable(),
    isGroup: p.boolean().default(false),
    state: p.string().nullable(),
    extraInfo: p.json<ExtraInfo[]>().default('[]'),
    blocked: p.boolean().default(false),
    chatbotBlocked: p.boolean().default(false),
    ...stamps(p),
  }),
});

export const Channel = defineEntity({
  name: 'Channel',
  tableName: 'channels',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    type: p.string(),
    name: p.string(),
    number: p.string().nullable(),
    status: p.string().default('disconnected'),
    isDefault: p.boolean().default(false),
    queueId: p.integer().nullable(),
    userId: p.integer().nullable(),
    chatflowId: p.integer().nullable(),
    farewellMessage: p.text().nullable(),
    closingKeyword: p.string().nullable(),
    config: p.json<Record<string, unknown>>().default('{}'),
    secrets: p.json<Record<string, unknown>>().default('{}').hidden(),
    qrcode: p.text().nullable(),
    retries: p.integer().default(0),
    statusAt: p.datetime().onCreate(() => new Date()),
    deletedAt: p.datetime().nullable(),
    ...stamps(p),
  }),
});
