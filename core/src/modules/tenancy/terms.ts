/**
 * The install's terms of use. They are accepted once per install by the
 * platform superadmin (core.md §6: "Only the superadmin accepts the terms of
 * use; others are told to ask and cannot continue until accepted").
 */
export const TERMS_VERSION = '1';

export const TERMS_TEXT = [
  'Termos de uso do Atende',
  '',
  '1. O Atende é operado pela empresa responsável por esta instalação (a plataforma), representada pelo superadmin.',
  '2. A plataforma é responsável pelos dados pessoais tratados nesta instalação, inclusive os de contatos e clientes atendidos, e deve tratá-los conforme a Lei Geral de Proteção de Dados (Lei 13.709/2018).',
  '3. O envio de mensagens deve respeitar as políticas de cada canal (WhatsApp, Telegram, Instagram, Messenger e outros). Envios em massa sem consentimento podem levar ao bloqueio do número; uma taxa de denúncias de 2% dos destinatários pode causar banimento.',
  '4. Cada empresa (tenant) acessa apenas os próprios dados. Credenciais, tokens de API e senhas são pessoais e não devem ser compartilhados.',
  '5. Empresas em período de teste têm seus dados apagados ao fim do período, salvo contratação de um plano.',
  '6. O software é fornecido no estado em que se encontra; a plataforma responde pela sua operação, cópias de segurança e atualizações.',
].join('\n');
