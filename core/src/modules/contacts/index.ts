import type { FastifyInstance } from 'fastify';
import type { KernelModule } from '../index.ts';
import type { Kernel } from '../../kernel.ts';
import { contactsMigrations } from './migrations.ts';
import { contactRoutes } from './routes.ts';

/**
 * Contacts: CRUD with every spec field, search, tags and wallets, block and
 * chatbot block, duplicates and merge, the Brazilian ninth-digit fix, number
 * validation, import (a job with real-time progress) and export. The contact
 * tables belong to the conversation schema; this module owns `contact_imports`.
 */
export const contactsModule: KernelModule = {
  name: 'contacts',
  entities: [],
  migrations: contactsMigrations,
  // Own encapsulated scope: multipart parsing is registered there only.
  routes: async (app: FastifyInstance, kernel: Kernel) => {
    await app.register(async (scope) => contactRoutes(scope, kernel));
  },
};

export { normalizeContactNumber, brazilNinthDigitFix, numberProblem, duplicateKey, type NumberProblem } from './phone.ts';
export { cpfCnpjKind, isValidCpf, isValidCnpj } from './document.ts';
export { parseBirthday, birthdayOrder, formatBirthday } from './birthday.ts';
export { contactsOut, contactOut, isAdmin, type ContactOut } from './service.ts';
export { officialApiActive } from './maintenance.ts';
