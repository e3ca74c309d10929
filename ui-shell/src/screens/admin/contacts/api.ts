import { api } from '@atende/ui-shell/sdk';

export interface Contact {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  identity: string | null;
  birthday: string | null;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  messengerId: string | null;
  instagramId: string | null;
  hubId: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  kanban: number | null;
  state: string | null;
  extraInfo: { name: string; value: string }[];
  blocked: boolean;
  chatbotBlocked: boolean;
  tags: { id: number; name: string; color: string }[];
  wallets: { id: number; name: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface ContactPage { contacts: Contact[]; count: number; hasMore: boolean; nextCursor: string | null }

export type ContactInput = Partial<Omit<Contact, 'id' | 'tags' | 'wallets' | 'profilePicUrl' | 'isGroup' | 'createdAt' | 'updatedAt'>> & { tags?: number[]; wallets?: number[] };

export const contactsKey = ['admin', 'contacts'] as const;

export const listContacts = (q: { searchParam?: string; tags?: string; pageNumber: number; limit: number }, signal?: AbortSignal) =>
  api.get<ContactPage>('/contacts', { query: q, signal });
export const createContact = (body: ContactInput) => api.post<Contact>('/contacts', body, { silent: true });
export const updateContact = (id: number, body: ContactInput) => api.put<Contact>(`/contacts/${id}`, body, { silent: true });
export const deleteContact = (id: number) => api.delete(`/contacts/${id}`);
export const setBlocked = (id: number, blocked: boolean) => api.put<Contact>(`/contacts/${id}/block`, { blocked });
export const setChatbotBlocked = (id: number, chatbotBlocked: boolean) => api.put<Contact>(`/contacts/${id}/chatbot-block`, { chatbotBlocked });

export interface ImportError { row: number; code: string; reason: string }
export interface ImportState {
  jobId: string;
  status?: string;
  total: number;
  processed: number;
  imported: number;
  rejected: number;
  errors?: ImportError[];
  errorsTruncated?: boolean;
  /** Why the worker refused the file (no Nome/Numero columns, too many rows…), already in the user's language. */
  message?: string;
}

export const startImport = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api.post<{ jobId: string; total: number }>('/contacts/import', form, { timeoutMs: 120_000 });
};
export const importStatus = (jobId: string) => api.get<ImportState>(`/contacts/import/${jobId}`, { background: true });

export interface DuplicateGroup { reason: 'number' | 'email'; key: string; contacts: Contact[] }
export const findDuplicates = () => api.get<{ groups: DuplicateGroup[] }>('/contacts/duplicates');
export const mergeContacts = (keepId: number, mergeIds: number[]) =>
  api.post<{ mergedIds: number[]; ticketsMoved: number }>('/contacts/merge', { keepId, mergeIds });

export interface NinthDigitCandidate { id: number; name: string; number: string; fixedNumber: string; conflictContactId: number | null }
export const previewNinthDigit = () => api.get<{ officialApi: boolean; count: number; candidates: NinthDigitCandidate[] }>('/contacts/ninth-digit');
export const applyNinthDigit = () => api.post<{ checked: number; fixed: number; conflicts: number }>('/contacts/ninth-digit');

export interface InvalidNumber { id: number; name: string; number: string; problem: string; fixedNumber?: string }
export const validateContacts = () =>
  api.get<{ officialApi: boolean; checked: number; valid: number; invalidCount: number; withoutNumber: number; invalid: InvalidNumber[] }>('/contacts/validate');
