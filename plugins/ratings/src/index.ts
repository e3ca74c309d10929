import { definePlugin, z } from '@atende/core/sdk';

/**
 * Ratings (avaliações, core.md §3 and §9): what customers answered to the
 * rating request sent on resolve, on the 0–5 scale, with the averages a
 * supervisor looks at. The kernel asks and records; its configuration is
 * `GET|PUT /tenants/rating`; this plugin lists and summarises.
 */

/** Labels of the scale, index = score (core.md §9). */
export const RATING_LABELS = ['Ruim', 'Regular', 'Bom', 'Muito bom', 'Excelente', 'Incrível'] as const;

const id = z.coerce.number().int().positive().max(2_147_483_647);
export const listQuery = z
  .object({
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    userId: id.optional(),
    queueId: id.optional(),
    score: z.coerce.number().int().min(0, 'nota de 0 a 5').max(5, 'nota de 0 a 5').optional(),
    search: z.string().trim().max(200).optional(),
    pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, 'a data inicial deve ser anterior à final');

export default definePlugin({
  id: 'ratings',
  kind: 'feature',
  name: 'Avaliações',
  description: 'Avaliações dos atendimentos (0 a 5) com filtros e médias; configuração do pedido de avaliação.',
  menus: [{ key: 'evaluations', label: 'menu.evaluations', route: '/avaliacoes', profiles: ['super', 'admin', 'superadmin'], userMenu: 'evaluations' }],
  ui: true,
  register(ctx) {
    ctx.http.get('/ratings', { config: { access: { menu: 'evaluations' } }, schema: { querystring: listQuery } }, async (req) => {
      const q = req.query as z.infer<typeof listQuery>;
      const r = await ctx.agentTools.ratings(req.principal!.tenantId, { ...q, offset: (q.pageNumber - 1) * q.limit });
      return { ...r, labels: RATING_LABELS, hasMore: q.pageNumber * q.limit < r.count };
    });
  },
});
