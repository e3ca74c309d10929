/**
 * The error catalogue: every failure a user can cause maps to one code, with
 * its HTTP status and its Portuguese (default) and English texts. The
 * kernel's own codes are below; each plugin brings its codes in its
 * `contract.ts` (with a text in every language), merged in at mount by
 * `registerPluginErrors` — a code claimed twice stops boot.
 * Messages may carry `{name}` placeholders filled from `AppError.params`.
 */
import type { AtendeErrorCodes, ErrorDefinition } from './sdk/contract.ts';
import { localizedText } from './sdk/contract.ts';

export interface CatalogueEntry {
  status: number;
  pt: string;
  en: string;
}

const e = (status: number, pt: string, en: string): CatalogueEntry => ({ status, pt, en });

export const ERRORS = {
  // --- channels and media (core.md §8) ---
  ERR_NO_DEF_WAPP_FOUND: e(404, 'Nenhum canal padrão encontrado. Verifique a página de canais.', 'No default channel found. Check the channels page.'),
  ERR_WAPP_NOT_INITIALIZED: e(409, 'Este canal não foi inicializado. Verifique a página de canais.', 'This channel has not been initialised. Check the channels page.'),
  ERR_WAPP_INITIALIZED: e(409, 'Este canal já está inicializado.', 'This channel is already initialised.'),
  ERR_WAPP_CHECK_CONTACT: e(502, 'Não foi possível verificar o contato no canal. Verifique a página de canais.', 'Could not check the contact on the channel. Check the channels page.'),
  ERR_WAPP_INVALID_CONTACT: e(400, 'Este não é um número válido para o canal.', 'This is not a valid number for the channel.'),
  ERR_WAPP_DOWNLOAD_MEDIA: e(502, 'Não foi possível baixar a mídia. Verifique a página de canais.', 'Could not download the media. Check the channels page.'),
  ERR_SENDING_WAPP_MSG: e(502, 'Erro ao enviar a mensagem pelo canal. Verifique a página de canais.', 'Error sending the message through the channel. Check the channels page.'),
  ERR_DELETE_WAPP_MSG: e(502, 'Não foi possível apagar a mensagem no canal.', 'Could not delete the message on the channel.'),
  ERR_FETCH_WAPP_MSG: e(502, 'Erro ao buscar a mensagem no canal; talvez ela seja antiga demais.', 'Error fetching the message from the channel; it may be too old.'),
  // --- authentication and session ---
  ERR_INVALID_CREDENTIALS: e(401, 'Informe usuário e senha corretamente', 'Enter a valid user and password'),
  ERR_LIMIT_MAX: e(429, 'Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto', 'Too many attempts. Try again in 1 minute'),
  ERR_SESSION_EXPIRED: e(401, 'A sessão expirou, você será redirecionado para o login', 'Your session has expired; you will be redirected to login'),
  ERR_INVALID_TOKEN: e(401, 'Token inválido', 'Invalid token'),
  ERR_LOGIN_REQUIRED: e(401, 'Necessário realizar login', 'Login required'),
  ERR_CAPTCHA: e(400, 'Por favor, valide o CAPTCHA antes de continuar', 'Please solve the CAPTCHA before continuing'),
  ERR_USER_CREATION_DISABLED: e(403, 'A criação de usuários foi desativada pelo administrador.', 'User creation has been disabled by the administrator.'),
  ERR_NO_PERMISSION: e(403, 'Você não tem permissão para acessar este recurso.', 'You do not have permission to access this resource.'),
  ERR_ACCESS_DENIED: e(403, 'Acesso negado! Você não tem permissão para acessar essa página.', 'Access denied! You do not have permission to access this page.'),
  ERR_UNAUTHORIZED_USER: e(403, 'Usuário não autorizado', 'User not authorised'),
  ERR_TENANT_INACTIVE: e(403, 'Sua empresa está inativa', 'Your company is inactive'),
  ERR_TENANT_INVALID: e(400, 'Tenant inválido', 'Invalid tenant'),
  ERR_TERMS_NOT_ACCEPTED: e(403, 'Aceite os termos de uso para continuar', 'Accept the terms of use to continue'),
  ERR_TERMS_SUPERADMIN_ONLY: e(403, 'Somente o superadmin pode aceitar os termos de uso; peça a ele para aceitá-los.', 'Only the superadmin can accept the terms of use; ask them to accept.'),
  ERR_PLATFORM_TENANT: e(400, 'O tenant 1 (plataforma) não pode ser desativado nem excluído', 'Tenant 1 (the platform) cannot be deactivated or deleted'),
  ERR_ASAAS_OVERDUE: e(402, 'Pagamento em atraso: verifique a situação do seu plano', 'Payment overdue: check your plan status'),
  ERR_NO_PERMISSION_API_ADMIN: e(403, 'Instalação não AUTORIZADA', 'Installation NOT AUTHORISED'),
  INVALID_LICENSE: e(403, 'License error', 'License error'),
  // --- signup and password ---
  ERR_SIGNUP_FIELDS: e(400, 'Preencha todos os campos!', 'Fill in all fields!'),
  ERR_INVALID_CPF_CNPJ: e(400, 'CPF ou CNPJ inválido', 'Invalid CPF or CNPJ'),
  ERR_INVALID_EMAIL: e(400, 'E-mail inválido', 'Invalid email'),
  ERR_WEAK_PASSWORD: e(400, 'A senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial', 'The password must have at least 7 characters with letters, numbers and a special character'),
  ERR_CREATING_CLIENT: e(400, 'Erro ao criar cliente', 'Error creating the customer'),
  ERR_TOO_MANY_SOCKETS: e(429, 'Há conexões demais abertas para este usuário. Feche outras abas ou janelas.', 'Too many connections are open for this user. Close other tabs or windows.'),
  ERR_CURRENT_PASSWORD: e(400, 'A senha atual está incorreta', 'The current password is incorrect'),
  ERR_PASSWORDS_MISMATCH: e(400, 'As senhas não coincidem', 'The passwords do not match'),
  ERR_PASSWORD_RESET_REQUEST: e(400, 'Erro ao solicitar redefinição de senha.', 'Error requesting a password reset.'),
  ERR_RESET_PASSWORD: e(400, 'Erro ao redefinir a senha.', 'Error resetting the password.'),
  ERR_EMAIL_IN_USE: e(409, 'Já existe um usuário com este e-mail', 'A user with this email already exists'),
  // --- limits ---
  ERR_USER_LIMIT: e(403, 'Limite de usuários atingido', 'User limit reached'),
  ERR_CONNECTION_LIMIT: e(403, 'Limite de conexões atingidas', 'Connection limit reached'),
  // --- not found ---
  ERR_NOT_FOUND: e(404, 'Registro não encontrado', 'Record not found'),
  ERR_ROUTE_NOT_FOUND: e(404, 'Rota não encontrada', 'Route not found'),
  ERR_NO_SETTING_FOUND: e(404, 'Nenhuma configuração encontrada com este ID.', 'No setting found with this ID.'),
  ERR_NO_CONTACT_FOUND: e(404, 'Nenhum contato encontrado com este ID.', 'No contact found with this ID.'),
  ERR_NO_TICKET_FOUND: e(404, 'Nenhum ticket encontrado com este ID.', 'No ticket found with this ID.'),
  ERR_NO_USER_FOUND: e(404, 'Nenhum usuário encontrado com este ID.', 'No user found with this ID.'),
  ERR_NO_WAPP_FOUND: e(404, 'Nenhum canal encontrado com este ID.', 'No channel found with this ID.'),
  ERR_NO_TENANT_FOUND: e(404, 'Nenhuma empresa encontrada com este ID.', 'No company found with this ID.'),
  // --- contacts, tickets, messages ---
  ERR_DUPLICATED_CONTACT: e(409, 'Já existe um contato com este número.', 'A contact with this number already exists.'),
  ERR_OTHER_OPEN_TICKET: e(409, 'Já existe um ticket aberto/pendente para esse contato', 'There is already an open/pending ticket for this contact'),
  ERR_OTHER_OPEN_TICKET_ADMIN: e(409, 'Já existe um ticket em andamento para esse contato; somente um administrador pode atribuí-lo', 'This contact already has a ticket in progress; only an administrator can assign it'),
  ERR_CREATING_MESSAGE: e(500, 'Erro ao criar a mensagem no banco de dados.', 'Error creating the message in the database.'),
  ERR_CREATING_TICKET: e(500, 'Erro ao criar o ticket no banco de dados.', 'Error creating the ticket in the database.'),
  ERR_TRANSFER: e(400, 'Não foi possível transferir', 'Could not transfer'),
  ERR_TRANSFER_USER_NOT_IN_QUEUE: e(400, 'Não foi possível transferir: o usuário selecionado não atende a fila escolhida', 'Could not transfer: the selected user does not work in the chosen queue'),
  ERR_TICKET_SAME_USER: e(400, 'Ticket já pertence ao usuário selecionado', 'The ticket already belongs to the selected user'),
  ERR_SENDING_MESSAGE: e(400, 'Não foi possível enviar a mensagem. Tente novamente', 'Could not send the message. Try again'),
  ERR_INVALID_MESSAGE: e(400, 'Mensagem inválida', 'Invalid message'),
  ERR_FORWARD_LIMIT: e(400, 'Só é possível encaminhar até 10 mensagens para um único contato', 'You can forward at most 10 messages to a single contact'),
  ERR_QUICK_MESSAGE_NOT_FOUND: e(404, 'Nenhuma mensagem rápida encontrada para este atalho', 'No quick message matches this shortcut'),
  ERR_QUICK_MESSAGE_AMBIGUOUS: e(409, 'Mais de uma mensagem rápida corresponde; use um atalho único', 'Several quick messages match; use a unique shortcut'),
  ERR_FILE_REJECTED: e(400, 'Arquivo recusado: tamanho ou tipo não permitido', 'File rejected: size or type not allowed'),
  ERR_FILE_TOO_LARGE: e(413, 'Arquivo muito grande', 'File too large'),
  ERR_DELETE_USER: e(400, 'Não é possível deletar o usuário', 'The user cannot be deleted'),
  ERR_LAST_ADMIN: e(400, 'O último administrador ativo da empresa não pode ser rebaixado nem desativado', 'The last active administrator of the company cannot be demoted or disabled'),
  ERR_SMTP_SEND: e(502, 'Não foi possível enviar o e-mail. Confira o servidor, a porta, a segurança (SSL/TLS) e as credenciais.', 'Could not send the email. Check the server, port, security (SSL/TLS) and credentials.'),
  ERR_SMTP_NOT_CONFIGURED: e(400, 'Nenhum servidor SMTP configurado', 'No SMTP server configured'),
  ERR_SETTINGS_CONFLICT: e(400, 'Estas opções não podem ser combinadas: ocultar tickets atribuídos a outros, ocultar tickets do chatbot e mostrar tickets sem usuário ou fila', 'These options cannot be combined: hide tickets assigned to others, hide chatbot tickets and show tickets without user or queue'),
  // --- contacts and catalogue (tags, queues, quick messages) ---
  ERR_INVALID_NUMBER: e(400, 'Número inválido: informe o número com o código do país (ex.: 5511987654321)', 'Invalid number: enter the number with its country code (e.g. 5511987654321)'),
  ERR_QUEUE_EXISTS: e(409, 'Já existe uma fila com este nome', 'A queue with this name already exists'),
  ERR_TAG_EXISTS: e(409, 'Já existe uma etiqueta com este nome', 'A tag with this name already exists'),
  ERR_QUICK_MESSAGE_KEY_EXISTS: e(409, 'Já existe uma mensagem rápida com este atalho', 'A quick message with this shortcut already exists'),
  ERR_NINTH_DIGIT_OFFICIAL_API: e(409, 'Há um canal da API oficial ativo: os números devem ser exatamente os da conta, e a correção do nono dígito não pode ser executada', 'An official API channel is active: numbers must match the account exactly, so the ninth-digit fix cannot run'),
  ERR_IMPORT_COLUMNS: e(400, 'O arquivo deve ter as colunas Nome e Numero', 'The file must have the columns Name and Number'),
  ERR_IMPORT_EMPTY: e(400, 'O arquivo não tem linhas para importar', 'The file has no rows to import'),
  ERR_IMPORT_BUSY: e(429, 'Já há {max} importações em andamento; aguarde uma terminar', 'There are already {max} imports running; wait for one to finish'),
  ERR_IMPORT_TOO_MANY_ROWS: e(400, 'O arquivo tem mais de {max} linhas; divida-o em partes', 'The file has more than {max} rows; split it into parts'),
  // --- channels (administration.md §8) ---
  ERR_SAVING_CHANNEL: e(400, 'Error saving channel', 'Error saving channel'),
  ERR_QR_CODE: e(502, 'Error generating QR code', 'Error generating QR code'),
  ERR_SYNC_MESSAGES: e(502, 'Error syncing messages', 'Error syncing messages'),
  ERR_TRANSFER_CHANNEL: e(400, 'Error transferring channel', 'Error transferring channel'),
  ERR_CHANNEL_NOT_SUPPORTED: e(400, 'Este tipo de canal não oferece {feature}', 'This channel type does not offer {feature}'),
  ERR_CHANNEL_NAME_LOCKED: e(400, 'O nome deste canal não pode ser alterado depois de criado', 'This channel name cannot be changed after creation'),
  ERR_INVALID_JSON: e(400, 'The entered JSON format is invalid...', 'The entered JSON format is invalid...'),
  ERR_UPDATE_FILE: e(400, 'Only the update_rapido.zip file is allowed.', 'Only the update_rapido.zip file is allowed.'),
  ERR_LINE_BUSY: e(409, 'Linha ocupada, tente mais tarde ou faça um upgrade', 'Line busy, try later or upgrade'),
  ERR_WEBPHONE_NOT_CONNECTED: e(409, 'Webphone não está conectado', 'Webphone is not connected'),
  ERR_CAMPAIGN_PROCESSING: e(409, 'Não é possível cancelar uma campanha em processamento', 'A campaign being processed cannot be cancelled'),
  ERR_CAMPAIGN_NOT_EDITABLE: e(409, 'Somente campanhas pendentes ou canceladas podem ser editadas ou agendadas', 'Only pending or cancelled campaigns can be edited or scheduled'),
  ERR_CAMPAIGN_PAST_START: e(400, 'A data de início não pode ser anterior a agora', 'The start cannot be before now'),
  ERR_CAMPAIGN_NO_CONTACTS: e(400, 'Vincule contatos antes de agendar a campanha', 'Link contacts before scheduling the campaign'),
  ERR_SCHEDULE_NOT_PENDING: e(409, 'Este agendamento já foi enviado e não pode ser alterado', 'This scheduled message was already sent and cannot be changed'),
  // --- outbound requests (docs/security.md) ---
  ERR_OUTBOUND_BLOCKED: e(400, 'Endereço de destino não permitido: endereços locais, privados ou internos só podem ser usados se o superadmin liberá-los', 'Destination address not allowed: local, private or internal addresses can only be used if the superadmin allows them'),
  ERR_PROVIDER_URL_LOCKED: e(403, 'Somente o superadmin pode apontar este canal para outro servidor; deixe o campo em branco para usar o endereço oficial ({host})', 'Only the superadmin can point this channel at another server; leave the field blank to use the official address ({host})'),
  // --- generic input ---
  ERR_VALIDATION: e(400, 'Verifique os erros: {details}', 'Check the errors: {details}'),
  ERR_REQUIRED_FIELD: e(400, 'O campo {field} é obrigatório', 'The field {field} is required'),
  ERR_INVALID_DATE: e(400, 'Data inválida', 'Invalid date'),
  ERR_POSITIVE_LIMIT: e(400, 'O limite deve ser um número positivo', 'The limit must be a positive number'),
  ERR_PAYLOAD_TOO_LARGE: e(413, 'Requisição grande demais', 'Request too large'),
  ERR_UNSUPPORTED_MEDIA_TYPE: e(415, 'Tipo de conteúdo não suportado', 'Unsupported content type'),
  ERR_API_LIMIT: e(429, 'Muitas requisições em pouco tempo. Tente novamente em {seconds} s', 'Too many requests. Try again in {seconds} s'),
  ERR_RATE_LIMIT: e(429, 'Muitas requisições. Tente novamente em instantes', 'Too many requests. Try again shortly'),
  ERR_WEBHOOK_SIGNATURE: e(401, 'Assinatura do webhook inválida', 'Invalid webhook signature'),
  ERR_PLUGIN_UNKNOWN: e(404, 'Plugin desconhecido', 'Unknown plugin'),
  ERR_SERVICE_UNAVAILABLE: e(503, 'Serviço temporariamente indisponível. Tente novamente em instantes', 'Service temporarily unavailable. Try again shortly'),
  ERR_SHUTTING_DOWN: e(503, 'O servidor está reiniciando. Tente novamente em instantes', 'The server is restarting. Try again shortly'),
  ERR_INTERNAL: e(500, 'Ocorreu um erro não identificado.', 'An unidentified error occurred.'),
} as const satisfies Record<string, CatalogueEntry>;

export type KernelErrorCode = keyof typeof ERRORS;
/** A kernel code or one a plugin's contract declares (`AtendeErrorCodes`). */
export type ErrorCode = KernelErrorCode | (keyof AtendeErrorCodes & string);

/** Every code the install answers with: the kernel's, then each mounted plugin's, with the plugin that owns it. */
const catalogue = new Map<string, { status: number; text: (lang: string) => string; owner: string }>(
  Object.entries(ERRORS).map(([code, entry]) => [code, { status: entry.status, text: (lang: string) => (lang === 'pt' ? entry.pt : entry.en), owner: 'kernel' }]),
);

/**
 * Adds a plugin's error codes to the catalogue. A code the kernel or another
 * plugin already owns stops boot with both owners named; mounting the same
 * plugin again (tests build several apps in one process) is a no-op.
 */
export function registerPluginErrors(pluginId: string, errors: Record<string, ErrorDefinition>): void {
  for (const [code, def] of Object.entries(errors)) {
    const existing = catalogue.get(code);
    if (existing && existing.owner !== `plugin:${pluginId}`) throw new Error(`error code ${code} of plugin ${pluginId} is already declared by ${existing.owner}`);
    catalogue.set(code, { status: def.status, text: (lang) => localizedText(def.text, lang), owner: `plugin:${pluginId}` });
  }
}

/** The catalogue entry of a code (status and texts), or undefined for an unknown code. */
export function catalogueEntry(code: string): { status: number; owner: string } | undefined {
  const hit = catalogue.get(code);
  return hit && { status: hit.status, owner: hit.owner };
}

/** Every code in the catalogue now (kernel and mounted plugins). */
export const catalogueCodes = (): string[] => [...catalogue.keys()];

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    /** Extra fields returned to the client beside error/message (e.g. the existing ticket's id). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(formatError(code, 'pt', params));
    this.name = 'AppError';
    // A code no mounted plugin declared is a programming error: answer as an internal error, never a half-formed 4xx.
    this.status = catalogue.get(code)?.status ?? 500;
  }
}

export function formatError(code: ErrorCode, lang: string, params: Record<string, string | number> = {}): string {
  const template = catalogue.get(code)?.text(lang) ?? ERRORS.ERR_INTERNAL.pt;
  return template.replace(/\{(\w+)\}/g, (_, k: string) => (k in params ? String(params[k]) : `{${k}}`));
}

/** Picks the message language from Accept-Language: Portuguese unless the client prefers another language (kernel texts exist in pt and en). */
export function languageOf(acceptLanguage: string | undefined): 'pt' | 'en' {
  return localeOf(acceptLanguage) === 'pt' ? 'pt' : 'en';
}

/** The client's preferred language tag (`pt`, `es`, `en-gb`…), Portuguese by default: plugin errors carry texts in every catalogue language. */
export function localeOf(acceptLanguage: string | undefined): string {
  if (!acceptLanguage) return 'pt';
  const first = acceptLanguage.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (first === '' || first === '*' || first.startsWith('pt')) return 'pt';
  return /^[a-z]{2}(-[a-z0-9]{2,3})?$/.test(first) ? first : 'en';
}
