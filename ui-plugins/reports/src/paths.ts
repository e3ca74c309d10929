/** The report screens under `/relatorios`, in the menu's order (administration.md §2). */
export const REPORT_PATHS = [
  'atendimentos-por-parametros',
  'estatisticas-atendimentos-usuarios',
  'lista-contatos',
  'contatos-por-etiquetas',
  'contatos-por-estado',
  'contatos-por-carteira',
] as const;
